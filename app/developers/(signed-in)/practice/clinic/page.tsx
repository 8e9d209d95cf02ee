import { PracticePage } from '../_components/practice-page';
import { ProfileForm } from './profile-form';

export const metadata = { title: 'Clinic profile — practice setup' };

export default function ClinicProfilePage() {
  return <PracticePage title="the clinic profile">{(canManage) => <ProfileForm canManage={canManage} />}</PracticePage>;
}
