import { redirect } from 'next/navigation';
import { pageContext } from '../_lib/context';
import { afterSignIn, portalPath } from '../_lib/next';
import { SignInForm } from './sign-in-form';

export const metadata = { title: 'Sign in — developer portal' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { account, member } = await pageContext();
  const next = portalPath((await searchParams).next);
  if (member) redirect(afterSignIn(next));
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-10">
      <p className="text-xs uppercase tracking-wide text-slate-500">Developer portal</p>
      <h1 className="mb-6 text-2xl font-semibold">Sign in to {account.name}</h1>
      <SignInForm next={next} />
    </main>
  );
}
