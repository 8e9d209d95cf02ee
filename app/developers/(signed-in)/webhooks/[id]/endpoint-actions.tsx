'use client';
/**
 * What can be done to an endpoint: send a test event, show or rotate its signing secret (shown here,
 * beside the endpoint, named, with Copy), disable or enable it, delete it. Each that stops or changes
 * delivery asks first.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import { CopyField } from '../../../_components/copy-button';
import { useFullTime } from '../../../_components/time';
import { Alert, Button, InlineError } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';
import { GraceChoice, graceLength, type Grace } from '../../../_components/grace-choice';

type Endpoint = Awaited<ReturnType<typeof portal.webhooks.get.query>>['endpoint'];

export function EndpointActions({ endpoint }: { endpoint: Endpoint }) {
  const [secret, setSecret] = useState<{ value: string; note?: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [grace, setGrace] = useState<Grace>('24h');
  const queries = useQueryClient();
  const router = useRouter();
  const until = useFullTime();
  const refresh = () => queries.invalidateQueries({ queryKey: ['webhooks'] });
  const onError = (err: unknown) => setError(portalError(err).message);
  const reveal = useMutation({
    mutationFn: () => portal.webhooks.secret.query({ id: endpoint.id }),
    onSuccess: (r) => setSecret({ value: r.secret }),
    onError,
  });
  const test = useMutation({
    mutationFn: () => portal.webhooks.test.mutate({ id: endpoint.id }),
    onSuccess: () => {
      setError(null);
      setNotice('Test event queued: it shows in the messages below.');
      void refresh();
    },
    onError,
  });
  const enable = useMutation({
    mutationFn: () => portal.webhooks.setEnabled.mutate({ id: endpoint.id, enabled: true }),
    onSuccess: () => {
      setError(null);
      void refresh();
    },
    onError,
  });
  const rotate = async () => {
    const r = await portal.webhooks.rotate.mutate({ id: endpoint.id, grace });
    setSecret({
      value: r.secret,
      note: r.previous_valid_until
        ? `The previous secret also signs messages until ${until(r.previous_valid_until)}: update your receiver before then.`
        : 'The previous secret no longer signs messages: your receiver needs this one now.',
    });
    await refresh();
  };
  const disable = async () => {
    await portal.webhooks.setEnabled.mutate({ id: endpoint.id, enabled: false });
    // "Test event queued" no longer holds: a disabled endpoint's messages wait.
    setNotice('');
    await refresh();
  };
  const remove = async () => {
    await portal.webhooks.delete.mutate({ id: endpoint.id });
    await queries.invalidateQueries({ queryKey: ['webhooks', 'list'] });
    // The list says what was deleted, and takes focus there (this page, and the button, are gone).
    router.push(`/developers/webhooks?deleted=${encodeURIComponent(endpoint.url)}`);
  };
  return (
    <div className="flex flex-col gap-3">
      {secret && (
        <Alert tone="success">
          {secret.note && <p className="mb-2">{secret.note}</p>}
          <div className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1 basis-64">
              <CopyField id="signing-secret" label={`Signing secret for ${endpoint.url}`} value={secret.value} />
            </div>
            <Button tone="secondary" onClick={() => setSecret(null)}>
              Hide secret
            </Button>
          </div>
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <Button tone="secondary" onClick={() => test.mutate()} disabled={test.isPending || !endpoint.enabled}>
          Send test event
        </Button>
        {!secret && (
          <Button tone="secondary" onClick={() => reveal.mutate()} disabled={reveal.isPending}>
            Show signing secret
          </Button>
        )}
        <ConfirmDialog
          trigger={<Button tone="secondary">Rotate secret</Button>}
          focusAfter={() => document.getElementById('signing-secret')}
          title="Rotate the signing secret?"
          confirm="Rotate secret"
          onConfirm={rotate}
          extra={
            <GraceChoice
              name="secret-grace"
              legend="How long the current secret also signs messages"
              grace={grace}
              onChange={setGrace}
            />
          }
        >
          <p className="[overflow-wrap:anywhere]">
            Messages to {endpoint.url} are signed with a new secret from now on.{' '}
            {grace === 'now'
              ? 'The current secret stops signing at once (for a secret that leaked): your receiver refuses messages until it has the new one.'
              : `The current secret also signs them for ${graceLength(grace)}, so your receiver keeps accepting them while you update it.`}
          </p>
        </ConfirmDialog>
        {endpoint.enabled ? (
          <ConfirmDialog
            trigger={<Button tone="secondary">Disable</Button>}
            focusAfter={() => document.getElementById('enable-endpoint')}
            title="Disable this endpoint?"
            confirm="Disable endpoint"
            onConfirm={disable}
          >
            <p className="[overflow-wrap:anywhere]">
              Nothing is sent to {endpoint.url} until you enable it again. New events wait meanwhile and are sent,
              oldest first, when you do.
            </p>
          </ConfirmDialog>
        ) : (
          <Button id="enable-endpoint" tone="secondary" onClick={() => enable.mutate()} disabled={enable.isPending}>
            Enable
          </Button>
        )}
        <ConfirmDialog
          trigger={<Button tone="danger">Delete endpoint</Button>}
          title="Delete this endpoint?"
          confirm="Delete endpoint"
          onConfirm={remove}
        >
          <p className="[overflow-wrap:anywhere]">
            Nothing more is sent to {endpoint.url}, and its messages and their attempts are deleted with it. This cannot
            be undone.
          </p>
        </ConfirmDialog>
      </div>
      <InlineError message={error} />
      <p role="status" className="text-sm text-slate-700">
        {notice}
      </p>
    </div>
  );
}
