import { Gate } from '../../../../../_components/gate';
import { Alert } from '../../../../../_components/ui';
import { MessageDetail } from './message-detail';

export const metadata = { title: 'Webhook message — developer portal' };

const idOf = (s: string) => (/^\d{1,10}$/.test(s) ? Number(s) : 0);

export default async function WebhookMessagePage({ params }: { params: Promise<{ id: string; messageId: string }> }) {
  const { id, messageId } = await params;
  const [endpointId, message] = [idOf(id), idOf(messageId)];
  return (
    <Gate title="webhooks" permissions={['webhooks.manage']}>
      {endpointId > 0 && message > 0 ? (
        <MessageDetail endpointId={endpointId} messageId={message} />
      ) : (
        <>
          <h1 className="mb-4 text-2xl font-semibold">Webhook message</h1>
          <Alert>This clinic has no such webhook message.</Alert>
        </>
      )}
    </Gate>
  );
}
