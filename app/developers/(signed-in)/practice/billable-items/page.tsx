import { PracticePage } from '../_components/practice-page';
import { BillableItemsManager } from './billable-items-manager';

export const metadata = { title: 'Billable items — practice setup' };

export default function BillableItemsPage() {
  return (
    <PracticePage title="billable items">{(canManage) => <BillableItemsManager canManage={canManage} />}</PracticePage>
  );
}
