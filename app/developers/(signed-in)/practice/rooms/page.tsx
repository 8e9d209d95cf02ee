import { PracticePage } from '../_components/practice-page';
import { RoomsManager } from './rooms-manager';

export const metadata = { title: 'Rooms and equipment — practice setup' };

export default function RoomsPage() {
  return (
    <PracticePage title="rooms and equipment">{(canManage) => <RoomsManager canManage={canManage} />}</PracticePage>
  );
}
