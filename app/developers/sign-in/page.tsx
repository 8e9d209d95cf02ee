import { redirect } from 'next/navigation';
import { pageContext } from '../_lib/context';
import { afterSignIn, portalPath } from '../_lib/next';
import { SignInForm } from './sign-in-form';

export const metadata = { title: 'Sign in — developer portal' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; ended?: string | string[] }>;
}) {
  const { account, member } = await pageContext();
  const asked = await searchParams;
  const next = portalPath(asked.next);
  if (member) redirect(afterSignIn(next));
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-10">
      <p className="text-xs uppercase tracking-wide text-slate-500">Developer portal</p>
      <h1 className="mb-6 text-2xl font-semibold">Sign in to {account.name}</h1>
      {asked.ended === '1' ? (
        <p role="status" className="mb-4 rounded-md border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-900">
          Your session ended (it expired, or you were signed out in another tab). Sign in again to go back to the page
          you were on.
        </p>
      ) : (
        next && (
          <p className="mb-4 text-sm text-slate-600">
            {next.startsWith('/developers/connect')
              ? 'An AI app asks to connect to this clinic: sign in to see what it asks for, then allow or deny it.'
              : 'Sign in to open the page you asked for.'}
          </p>
        )
      )}
      <SignInForm next={next} />
    </main>
  );
}
