import { PracticePage } from '../_components/practice-page';
import { ReferralSourcesManager } from './referral-sources-manager';

export const metadata = { title: 'Referral sources — practice setup' };

export default function ReferralSourcesPage() {
  return (
    <PracticePage title="referral sources">
      {(canManage) => <ReferralSourcesManager canManage={canManage} />}
    </PracticePage>
  );
}
