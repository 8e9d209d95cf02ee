import { Gate } from '../../_components/gate';
import { ConnectorsManager } from './connectors-manager';

export const metadata = { title: 'AI connectors — developer portal' };

export default function ConnectorsPage() {
  return (
    <Gate title="AI connectors" permissions={['connectors.manage', 'connectors.manage_all']}>
      <ConnectorsManager />
    </Gate>
  );
}
