import type { ReactNode } from 'react';
import { Providers } from './_components/providers';
import { pageContext } from './_lib/context';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Developer portal — Clinic API' };

/** Every portal page is on a clinic host: an unknown clinic is the 404 page. */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  await pageContext();
  return <Providers>{children}</Providers>;
}
