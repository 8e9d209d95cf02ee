import type { ReactNode } from 'react';
import { Shell } from '../_components/shell';
import { SignInFirst } from '../_components/sign-in-first';
import { pageContext } from '../_lib/context';
import { allowed, PAGES } from '../_lib/pages';

/** Pages for signed-in members: signed out (or a session that ended) goes to the sign-in page, and back here after it. */
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const { account, member, hasFormTemplates } = await pageContext();
  if (!member) return <SignInFirst />;
  const templates = await hasFormTemplates();
  const nav = PAGES.filter((p) => allowed(member, p.permissions) && (!p.onlyWithFormTemplates || templates)).map(
    ({ href, label, section }) => ({
      href,
      label,
      section: section ?? 'Developers',
    }),
  );
  return (
    <Shell clinic={account.name} member={{ name: member.name, role: member.role }} nav={nav}>
      {children}
    </Shell>
  );
}
