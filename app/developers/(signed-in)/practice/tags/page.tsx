import { PracticePage } from '../_components/practice-page';
import { TagsManager } from './tags-manager';

export const metadata = { title: 'Patient tags — practice setup' };

export default function TagsPage() {
  return <PracticePage title="patient tags">{(canManage) => <TagsManager canManage={canManage} />}</PracticePage>;
}
