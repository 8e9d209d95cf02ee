import { redirect } from 'next/navigation';
import { can } from '../../../server/auth/permissions';
import { pageContext } from '../_lib/context';
import { workingPages } from '../_lib/pages';

/**
 * /developers: a member whose role opens no working page (the default practitioner and receptionist),
 * and one who sets the practice up while the clinic still has steps left, start on the Start page; the
 * others on the first page they may use (API keys for an owner or admin).
 */
export default async function PortalHome() {
  const { member, setupStepsLeft } = await pageContext();
  if (!member) redirect('/developers/sign-in');
  const working = workingPages(member);
  if (!working.length || (can(member, 'settings.manage') && (await setupStepsLeft()) > 0))
    redirect('/developers/start');
  redirect(working[0].href);
}
