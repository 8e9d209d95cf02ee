import { PracticePage } from '../_components/practice-page';
import { ModalitiesManager } from './modalities-manager';

export const metadata = { title: 'Modalities — practice setup' };

export default function ModalitiesPage() {
  return <PracticePage title="modalities">{(canManage) => <ModalitiesManager canManage={canManage} />}</PracticePage>;
}
