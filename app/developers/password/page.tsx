import { pageContext } from '../_lib/context';
import { SetPasswordForm } from './set-password-form';

export const metadata = { title: 'Choose your password — developer portal' };

/** Where set-up and reset links lead (the token is in the fragment: the form reads it in the browser). */
export default async function PasswordPage() {
  const { account } = await pageContext();
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-10">
      <p className="text-xs uppercase tracking-wide text-slate-500">Developer portal · {account.name}</p>
      <SetPasswordForm />
    </main>
  );
}
