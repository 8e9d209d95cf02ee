import { Suspense } from 'react';
import { Gate } from '../../../_components/gate';
import { Alert, Loading } from '../../../_components/ui';
import { EndpointPage } from './endpoint-page';

export const metadata = { title: 'Webhook endpoint — developer portal' };

export default async function WebhookEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const n = /^\d{1,10}$/.test(id) ? Number(id) : 0;
  return (
    <Gate title="webhooks" permissions={['webhooks.manage']}>
      {n > 0 ? (
        // The filters live in the address, read on the client.
        <Suspense fallback={<Loading what="the endpoint" />}>
          <EndpointPage id={n} />
        </Suspense>
      ) : (
        <>
          <h1 className="mb-4 text-2xl font-semibold">Webhook endpoint</h1>
          <Alert>This clinic has no such webhook endpoint.</Alert>
        </>
      )}
    </Gate>
  );
}
