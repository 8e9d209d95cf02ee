'use client';
/**
 * Who did what to keys, sign-ins, the team, roles, webhooks, AI connectors and the practice setup:
 * newest first, each as a sentence with names, filtered by kind, member and days (in the clinic's
 * zone), loaded a page at a time, and downloadable as CSV with the same filters.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Card, Empty, Field, LoadFailed, Loading, Select, Table, TextInput } from '../../_components/ui';
import { Time, useClinicZone } from '../../_components/time';
import { portal, portalError } from '../../_lib/trpc';
import { CsvDownload } from './csv-download';

type Entry = Awaited<ReturnType<typeof portal.activity.list.query>>['data'][number];
type Kind = NonNullable<Entry['kind']>;
const KINDS: Record<Kind, string> = {
  api_keys: 'API keys',
  sign_ins: 'Sign-ins',
  team: 'Team',
  roles: 'Roles',
  webhooks: 'Webhooks',
  connectors: 'AI connectors',
  practice: 'Practice setup',
};

export interface ActivityFilters {
  kind?: Kind;
  member_id?: number;
  from?: string;
  to?: string;
}

export function ActivityLog() {
  const [kind, setKind] = useState<Kind | ''>('');
  const [member, setMember] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const zone = useClinicZone();
  const members = useQuery({ queryKey: ['activity.members'], queryFn: () => portal.activity.members.query() });
  // A range the wrong way round is said, not sent (it would only ever list nothing).
  const backwards = Boolean(from && to && from > to);
  const filters: ActivityFilters = {
    kind: kind || undefined,
    member_id: member ? Number(member) : undefined,
    from: from || undefined,
    to: backwards ? undefined : to || undefined,
  };
  const log = useInfiniteQuery({
    queryKey: ['activity', filters],
    queryFn: ({ pageParam }) => portal.activity.list.query({ ...filters, before: pageParam }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  const filtered = Boolean(kind || member || from || to);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Activity log</h1>
      <Card title="Activity">
        <form
          aria-label="Filter activity"
          className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
          onSubmit={(e) => e.preventDefault()}
        >
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
          <Field id="activity-member" label="Done by">
            <Select id="activity-member" value={member} onChange={(e) => setMember(e.target.value)}>
              <option value="">Anyone</option>
              {members.data?.data.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.active ? m.name : `${m.name} (deactivated)`}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="activity-from" label="From">
            <TextInput
              id="activity-from"
              type="date"
              value={from}
              max={to || undefined}
              onChange={(e) => setFrom(e.target.value)}
              aria-describedby="activity-zone"
            />
          </Field>
          <Field
            id="activity-to"
            label="To (included)"
            error={backwards ? 'The end day is before the start day: pick a later one.' : undefined}
          >
            <TextInput
              id="activity-to"
              type="date"
              value={to}
              min={from || undefined}
              onChange={(e) => setTo(e.target.value)}
              error={backwards ? 'backwards' : undefined}
            />
          </Field>
          <CsvDownload filters={filters} disabled={backwards} />
          <p id="activity-zone" className="text-xs text-slate-500 sm:col-span-2 lg:col-span-5">
            Days and times are the clinic&rsquo;s, in {zone}.
          </p>
        </form>
        {log.isPending && <Loading what="activity" />}
        {log.isError && <LoadFailed message={portalError(log.error).message} retry={() => void log.refetch()} />}
        {log.isSuccess && rows.length === 0 && (
          <Empty>{filtered ? 'No activity matches these filters.' : 'Nothing here yet.'}</Empty>
        )}
        {rows.length > 0 && (
          <Table caption="Account activity, newest first" head={['When', 'What happened']}>
            {rows.map((e) => (
              <tr key={e.id}>
                <td className="whitespace-nowrap px-2 py-2 align-top">
                  <Time iso={e.created_at} />
                </td>
                <td className="px-2 py-2">{e.summary}</td>
              </tr>
            ))}
          </Table>
        )}
        {log.hasNextPage && (
          <Button
            tone="secondary"
            className="mt-4"
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
          >
            {log.isFetchingNextPage ? 'Loading…' : 'Load older entries'}
          </Button>
        )}
      </Card>
    </div>
  );
}
