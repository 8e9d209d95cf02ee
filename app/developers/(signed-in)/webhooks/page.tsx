import { Gate } from '../../_components/gate';
import { WebhooksManager } from './webhooks-manager';

export const metadata = { title: 'Webhooks — developer portal' };

export default function WebhooksPage() {
  return (
    <Gate title="webhooks" permissions={['webhooks.manage']}>
      <WebhooksManager />
    </Gate>
  );
}
