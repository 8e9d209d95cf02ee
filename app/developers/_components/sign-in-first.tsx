'use client';
/**
 * A signed-out visit to a signed-in page: off to sign-in, with this page (and its query) to come back
 * to. A client component because only the browser's router knows the address: a server layout is not
 * given the path it renders for.
 */
import { redirect, usePathname, useSearchParams } from 'next/navigation';
import { signInHref } from '../_lib/next';

export function SignInFirst(): null {
  const path = usePathname();
  const query = useSearchParams().toString();
  return redirect(signInHref(query ? `${path}?${query}` : path));
}
