'use client';
/**
 * Connected AI apps: a member's own, or every member's with Manage everyone's AI apps; who connected them,
 * with what scope, when last used; revoke (after a confirmation).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../_components/confirm-dialog';
import { CopyField } from '../../_components/copy-button';
import { Alert, Button, Card, Cell, Empty, LoadFailed, Loading, Row, Table } from '../../_components/ui';
import { Time } from '../../_components/time';
import { portal, portalError } from '../../_lib/trpc';

type Connector = Awaited<ReturnType<typeof portal.connectors.list.query>>['data'][number];

/** Two apps may register the same name: then the buttons and dialogs name each by its id too. */
function ConnectorRow({ c, named }: { c: Connector; named: string }) {
  const queries = useQueryClient();
  const revoke = async () => {
    await portal.connectors.revoke.mutate({ id: c.id });
    // Not awaited: the dialog closes (and moves focus) before this row leaves the page with it.
    void queries.invalidateQueries({ queryKey: ['connectors'] });
  };
  return (
    <Row>
      <Cell label="App">
        <div className="font-medium">{c.client_name}</div>
        <div className="text-xs text-slate-500">{c.client_id}</div>
      </Cell>
      <Cell label="Connected by">{c.member}</Cell>
      <Cell label="Scope" className="font-mono text-xs">
        {c.scope}
      </Cell>
      <Cell label="Connected">
        <Time iso={c.created_at} />
      </Cell>
      <Cell label="Last used">{c.last_used_at ? <Time iso={c.last_used_at} /> : 'Never'}</Cell>
      <Cell label="Actions">
        <ConfirmDialog
          trigger={
            <Button tone="secondary" aria-label={`Revoke ${named}`}>
              Revoke
            </Button>
          }
          // The row goes with the connection: the address to connect again is the next sensible place.
          focusAfter={() => document.getElementById('mcp-url')}
          title={`Revoke ${named}?`}
          confirm={`Revoke ${named}`}
          onConfirm={revoke}
        >
          <p>
            {c.client_name}, connected by {c.member}, loses its access to this clinic at once. To use it again, someone
            has to connect it again and approve it.
          </p>
        </ConfirmDialog>
      </Cell>
    </Row>
  );
}

export function ConnectorsManager() {
  const list = useQuery({ queryKey: ['connectors'], queryFn: () => portal.connectors.list.query() });
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">AI connectors</h1>
      <Card title="Connect an assistant">
        <p className="text-sm">
          Paste this MCP server address into an AI assistant that supports remote MCP servers; it asks you to sign in
          here and approve. It acts as you, read-only, within your role&apos;s permissions.
        </p>
        {list.data && (
          <div className="mt-3">
            <CopyField id="mcp-url" label="MCP server address" value={list.data.mcp_url} />
          </div>
        )}
      </Card>
      {list.isPending && <Loading what="connectors" />}
      {list.isError && <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />}
      {list.data && (
        <h2 className="text-lg font-semibold">
          {list.data.everyone ? 'All connected AI apps' : 'Your connected AI apps'}
        </h2>
      )}
      {list.data && list.data.data.length === 0 && (
        <Empty>{list.data.everyone ? 'No AI app is connected.' : 'You have not connected an AI app.'}</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <Table
          stacked
          caption={list.data.everyone ? 'Connected AI apps of every member' : 'Your connected AI apps'}
          head={['App', 'Connected by', 'Scope', 'Connected', 'Last used', 'Actions']}
        >
          {list.data.data.map((c, _, all) => (
            <ConnectorRow
              key={c.id}
              c={c}
              named={
                all.some((o) => o.id !== c.id && o.client_name === c.client_name)
                  ? `${c.client_name} (${c.client_id}, connected by ${c.member})`
                  : c.client_name
              }
            />
          ))}
        </Table>
      )}
      {list.isSuccess && (
        <Alert tone="info">Revoking ends the app&apos;s access at once; it must ask again to reconnect.</Alert>
      )}
    </div>
  );
}
