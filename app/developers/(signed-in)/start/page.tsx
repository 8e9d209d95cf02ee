import Link from 'next/link';
import { redirect } from 'next/navigation';
import { can, DEFAULT_ROLES, PERMISSIONS } from '../../../../server/auth/permissions';
import { Card } from '../../_components/ui';
import { pageContext } from '../../_lib/context';
import { workingPages } from '../../_lib/pages';
import { SetupChecklist } from './setup-checklist';

export const metadata = { title: 'Start — developer portal' };

/**
 * Where a member starts: for those who set the practice up, "Set up your clinic" ticked from the data;
 * for everyone, what their access here is for, so a role with no clinic pages (the default practitioner
 * and receptionist) is told what it can do rather than left on a page it cannot use.
 */
export default async function StartPage() {
  const { member, account } = await pageContext();
  if (!member) redirect('/developers/sign-in?next=%2Fdevelopers%2Fstart');
  const setsUp = can(member, 'settings.read') || can(member, 'settings.manage');
  const pages = workingPages(member);
  const aiApps = can(member, 'connectors.manage') || can(member, 'connectors.manage_all');
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-semibold">{setsUp ? 'Set up your clinic' : `Welcome, ${member.name}`}</h1>
      {setsUp && <SetupChecklist canManage={can(member, 'settings.manage')} />}
      <Card title="Your access">
        <div className="flex flex-col gap-3 text-sm text-slate-700">
          <p>
            You are {article(DEFAULT_ROLES[member.role].name)} {DEFAULT_ROLES[member.role].name.toLowerCase()} at{' '}
            {account.name}.{' '}
            {pages.length === 0
              ? 'Your role opens no clinic pages here: patients, diaries and billing are worked on in the clinic software, and an owner or admin gives roles more on the Team page.'
              : `Your role opens ${pages.length === 1 ? 'one page' : `${pages.length} pages`} of the menu.`}
          </p>
          <ul className="list-disc pl-5">
            {aiApps ? (
              <li>
                <Link className="text-indigo-700 underline" href="/developers/connectors">
                  AI connectors
                </Link>
                : connect an AI assistant (Claude, ChatGPT…) to the clinic as you, with your role&apos;s permissions,
                and disconnect it again.
              </li>
            ) : (
              <li>
                Connecting an AI assistant needs the “{PERMISSIONS['connectors.manage']}” permission; an owner or admin
                can add it to your role.
              </li>
            )}
            <li>
              <Link className="text-indigo-700 underline" href="/developers/account">
                Your account
              </Link>
              : your password, two-factor sign-in and where you are signed in.
            </li>
            <li>
              <Link className="text-indigo-700 underline" href="/developers/reference">
                API reference
              </Link>
              : what the clinic&apos;s software can do through the API.
            </li>
          </ul>
        </div>
      </Card>
    </div>
  );
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');
