import { Suspense } from 'react';
import { Gate } from '../../_components/gate';
import { Loading } from '../../_components/ui';
import { WebhooksList } from './webhooks-list';

export const metadata = { title: 'Webhooks — developer portal' };

export default function WebhooksPage() {
  return (
    <Gate title="webhooks" permissions={['webhooks.manage']}>
      {/* It reads the address (what was just deleted) on the client. */}
      <Suspense fallback={<Loading what="endpoints" />}>
        <WebhooksList />
      </Suspense>
    </Gate>
  );
}
