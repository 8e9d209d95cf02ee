'use client';
/** Who did what to keys, sign-ins, the team, roles, webhooks and AI connectors; newest first, filtered by kind, loaded a page at a time. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Card, Empty, Field, LoadFailed, Loading, Select, Table, when } from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';

type Entry = Awaited<ReturnType<typeof portal.activity.list.query>>['data'][number];
type Kind = NonNullable<Entry['kind']>;
const KINDS: Record<Kind, string> = { api_keys: 'API keys', sign_ins: 'Sign-ins', team: 'Team', roles: 'Roles', webhooks: 'Webhooks', connectors: 'AI connectors' };

const VERBS: Record<string, string> = {
  created: 'created',
  rotated: 'rotated',
  revoked: 'revoked',
  signed_in: 'signed in',
  role_changed: 'changed the role of',
  deactivated: 'deactivated',
  reactivated: 'reactivated',
  ownership_transferred: 'transferred ownership to',
  password_reset: 'reset the password of',
  updated: 'updated',
  secret_rotated: 'rotated the secret of',
  enabled: 'enabled',
  disabled: 'disabled',
  deleted: 'deleted',
  test_sent: 'sent a test event to',
  replayed: 'replayed to',
  recovered: 'recovered failed messages of',
  approved: 'approved',
};

const SUBJECT: Record<Kind, string> = { api_keys: 'API key', sign_ins: '', team: 'member', roles: 'role', webhooks: 'endpoint', connectors: 'AI connector' };

/** What an entry acted on: a connector by its app and member (grants are numbers nobody knows), else by kind and id. */
function subject(e: Entry): string {
  if (e.connector) return `${SUBJECT.connectors} ${e.connector.client ?? `#${e.entity_id}`}${e.connector.member ? ` of ${e.connector.member}` : ''}`;
  return e.kind && SUBJECT[e.kind] ? `${SUBJECT[e.kind]} #${e.entity_id}` : '';
}

export function ActivityLog() {
  const [kind, setKind] = useState<Kind | ''>('');
  const log = useInfiniteQuery({
    queryKey: ['activity', kind],
    queryFn: ({ pageParam }) => portal.activity.list.query({ kind: kind || undefined, before: pageParam }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Activity log</h1>
      <Card
        title="Activity"
        actions={
          <Field id="activity-kind" label="Show">
            <Select id="activity-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind | '')}>
              <option value="">Everything</option>
              {Object.entries(KINDS).map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
        }
      >
        {log.isPending && <Loading what="activity" />}
        {log.isError && <LoadFailed message={portalError(log.error).message} retry={() => void log.refetch()} />}
        {log.isSuccess && rows.length === 0 && <Empty>Nothing here yet.</Empty>}
        {rows.length > 0 && (
          <Table caption="Account activity, newest first" head={['When', 'Who', 'What', 'Details']}>
            {rows.map((e) => (
              <tr key={e.id}>
                <td className="whitespace-nowrap px-2 py-2">{when(e.created_at)}</td>
                <td className="px-2 py-2">{e.actor.name}</td>
                <td className="px-2 py-2">
                  {VERBS[e.action] ?? e.action} {subject(e)}
                </td>
                <td className="px-2 py-2 font-mono text-xs text-slate-600">{e.changes ? JSON.stringify(e.changes) : ''}</td>
              </tr>
            ))}
          </Table>
        )}
        {log.hasNextPage && (
          <Button tone="secondary" className="mt-4" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading…' : 'Load older entries'}
          </Button>
        )}
      </Card>
    </div>
  );
}
