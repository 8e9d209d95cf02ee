import { PracticePage } from '../_components/practice-page';
import { PractitionersManager } from './practitioners-manager';

export const metadata = { title: 'Practitioners — practice setup' };

export default function PractitionersPage() {
  return (
    <PracticePage title="practitioners">{(canManage) => <PractitionersManager canManage={canManage} />}</PracticePage>
  );
}
