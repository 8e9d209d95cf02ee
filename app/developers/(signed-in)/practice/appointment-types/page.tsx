import { PracticePage } from '../_components/practice-page';
import { AppointmentTypesManager } from './appointment-types-manager';

export const metadata = { title: 'Appointment types — practice setup' };

export default function AppointmentTypesPage() {
  return (
    <PracticePage title="appointment types">
      {(canManage) => <AppointmentTypesManager canManage={canManage} />}
    </PracticePage>
  );
}
