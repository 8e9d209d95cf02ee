import { AccountManager } from './account-manager';

export const metadata = { title: 'Your account — developer portal' };

export default function AccountPage() {
  return <AccountManager />;
}
