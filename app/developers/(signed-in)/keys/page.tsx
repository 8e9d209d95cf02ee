import { Gate } from '../../_components/gate';
import { KeysManager } from './keys-manager';

export const metadata = { title: 'API keys — developer portal' };

export default function KeysPage() {
  return (
    <Gate title="API keys" permissions={['api_keys.manage']}>
      <KeysManager />
    </Gate>
  );
}
