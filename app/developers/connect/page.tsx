import { redirect } from 'next/navigation';
import { pageContext } from '../_lib/context';
import { signInHref } from '../_lib/next';
import { ConsentForm } from './consent-form';

export const metadata = { title: 'Connect an AI app — developer portal' };

/**
 * The consent screen of the OAuth authorization endpoint (/v3/oauth2/authorize checks the request and
 * sends the person here with it). Signed out: sign in first, then back here with the same request.
 */
export default async function ConnectPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { account, member } = await pageContext();
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams))
    for (const item of Array.isArray(v) ? v : v === undefined ? [] : [v]) params.append(k, item);
  const query = params.toString();
  if (!member) redirect(signInHref(`/developers/connect?${query}`));
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-lg flex-col justify-center px-4 py-10">
      <p className="text-xs uppercase tracking-wide text-slate-500">
        {account.name} · signed in as {member.name}
      </p>
      <ConsentForm query={query} />
    </main>
  );
}
