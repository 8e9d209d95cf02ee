/** The page context (clinic, member) from the running server, for server components. */
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { portalBridge } from '../../../server/portal/bridge';
import type { PageContext } from '../../../server/portal/handler';

/** The clinic of this host and who is signed in; an unknown clinic host is the 404 page. */
export async function pageContext(): Promise<PageContext> {
  const h = await headers();
  const ctx = await portalBridge().contextFor({ headers: Object.fromEntries(h.entries()) });
  if (!ctx) notFound();
  return ctx;
}
