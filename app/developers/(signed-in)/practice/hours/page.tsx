import { PracticePage } from '../_components/practice-page';
import { HoursGrid } from './hours-grid';

export const metadata = { title: 'Opening hours — practice setup' };

export default function HoursPage() {
  return <PracticePage title="opening hours">{(canManage) => <HoursGrid canManage={canManage} />}</PracticePage>;
}
