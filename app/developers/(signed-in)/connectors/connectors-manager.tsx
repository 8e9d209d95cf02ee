'use client';
/** The account's connected AI apps: who connected them, with what scope, when last used; revoke. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Button, Card, Empty, LoadFailed, Loading, Table, when } from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';

type Connector = Awaited<ReturnType<typeof portal.connectors.list.query>>['data'][number];

function Row({ c }: { c: Connector }) {
  const queries = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({ mutationFn: () => portal.connectors.revoke.mutate({ id: c.id }), onSuccess: () => void queries.invalidateQueries({ queryKey: ['connectors'] }) });
  return (
    <tr>
      <td className="px-3 py-2">
        <div className="font-medium">{c.client_name}</div>
        <div className="text-xs text-slate-500">{c.client_id}</div>
      </td>
      <td className="px-3 py-2">{c.member}</td>
      <td className="px-3 py-2 font-mono text-xs">{c.scope}</td>
      <td className="px-3 py-2">{when(c.created_at)}</td>
      <td className="px-3 py-2">{when(c.last_used_at)}</td>
      <td className="px-3 py-2">
        {confirming ? (
          <span className="flex gap-2">
            <Button tone="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending} aria-label={`Confirm revoking ${c.client_name}`}>
              {revoke.isPending ? 'Revoking…' : 'Revoke now'}
            </Button>
            <Button tone="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </span>
        ) : (
          <Button tone="secondary" onClick={() => setConfirming(true)} aria-label={`Revoke ${c.client_name}`}>
            Revoke
          </Button>
        )}
        {revoke.isError && <p className="mt-1 text-xs text-red-700">{portalError(revoke.error).message}</p>}
      </td>
    </tr>
  );
}

export function ConnectorsManager() {
  const list = useQuery({ queryKey: ['connectors'], queryFn: () => portal.connectors.list.query() });
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">AI connectors</h1>
      <Card title="Connect an assistant">
        <p className="text-sm">
          Paste this MCP server address into an AI assistant that supports remote MCP servers; it asks you to sign in here and approve. It acts as you, read-only,
          within your role&apos;s permissions.
        </p>
        {list.data && (
          <p className="mt-2">
            <code className="rounded bg-slate-100 px-2 py-1 text-sm">{list.data.mcp_url}</code>
          </p>
        )}
      </Card>
      {list.isPending && <Loading what="connectors" />}
      {list.isError && <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />}
      {list.data && list.data.data.length === 0 && <Empty>No AI app is connected.</Empty>}
      {list.data && list.data.data.length > 0 && (
        <Table caption="Connected AI apps" head={['App', 'Connected by', 'Scope', 'Connected', 'Last used', '']}>
          {list.data.data.map((c) => (
            <Row key={c.id} c={c} />
          ))}
        </Table>
      )}
      {list.isSuccess && <Alert tone="info">Revoking ends the app&apos;s access at once; it must ask again to reconnect.</Alert>}
    </div>
  );
}
