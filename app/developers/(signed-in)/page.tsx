import { redirect } from 'next/navigation';
import { pageContext } from '../_lib/context';
import { allowed, PAGES } from '../_lib/pages';

/** /developers: the first page the member may use. */
export default async function PortalHome() {
  const { member } = await pageContext();
  if (!member) redirect('/developers/sign-in');
  redirect(PAGES.find((p) => allowed(member, p.permissions))!.href);
}
