import { PracticePage } from '../_components/practice-page';
import { LocationsManager } from './locations-manager';

export const metadata = { title: 'Locations — practice setup' };

export default function LocationsPage() {
  return <PracticePage title="locations">{(canManage) => <LocationsManager canManage={canManage} />}</PracticePage>;
}
