import { PracticePage } from '../_components/practice-page';
import { SettingsForm } from './settings-form';

export const metadata = { title: 'Settings — practice setup' };

export default function PracticeSettingsPage() {
  return <PracticePage title="practice settings">{(canManage) => <SettingsForm canManage={canManage} />}</PracticePage>;
}
