import { Gate } from '../../_components/gate';
import { WebhooksList } from './webhooks-list';

export const metadata = { title: 'Webhooks — developer portal' };

export default function WebhooksPage() {
  return (
    <Gate title="webhooks" permissions={['webhooks.manage']}>
      <WebhooksList />
    </Gate>
  );
}
