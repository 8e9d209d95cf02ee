'use client';
/**
 * Recover: failed messages since a time (in the clinic's zone) sent again. How many it will send is
 * counted, and said, before the button is pressed; the confirmation says it again.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { useState } from 'react';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import { useClinicZone, useFullTime } from '../../../_components/time';
import { Button, Card, Field, InlineError, TextInput } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';

const plural = (n: number) => `${n} failed message${n === 1 ? '' : 's'}`;

export function RecoverFailed({ id }: { id: number }) {
  const zone = useClinicZone();
  const full = useFullTime();
  // A day back (in the clinic's zone) until one is typed: the count shows at once, for the usual "since yesterday's outage".
  const [typed, setLocal] = useState<string | null>(null);
  const local =
    typed ?? DateTime.now().setZone(zone).minus({ days: 1 }).startOf('minute').toFormat("yyyy-MM-dd'T'HH:mm");
  const [done, setDone] = useState('');
  const queries = useQueryClient();
  const at = local ? DateTime.fromISO(local, { zone }) : null;
  const since = at?.isValid ? at.toUTC().toISO() : null;
  const count = useQuery({
    queryKey: ['webhooks', 'recoverCount', id, since],
    queryFn: () => portal.webhooks.recoverCount.query({ endpoint_id: id, since: since! }),
    enabled: since !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const n = count.data?.messages ?? 0;
  const recover = async () => {
    const r = await portal.webhooks.recover.mutate({ endpoint_id: id, since: since! });
    setDone(`${plural(r.messages)} queued to be sent again.`);
    await queries.invalidateQueries({ queryKey: ['webhooks'] });
  };
  return (
    <Card title="Recover failed messages">
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-600">
          After an outage: send again every message that failed since a time. Each is retried on the usual schedule.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <Field
            id="recover-since"
            label={`Failed since (${zone} time)`}
            error={local && !since ? 'Enter a date and time' : undefined}
          >
            <TextInput
              id="recover-since"
              type="datetime-local"
              value={local}
              onChange={(e) => {
                setDone('');
                setLocal(e.target.value);
              }}
              error={local && !since ? 'Enter a date and time' : undefined}
            />
          </Field>
          <ConfirmDialog
            trigger={
              <Button tone="secondary" disabled={!since || n === 0 || count.isFetching}>
                Replay {plural(n)}
              </Button>
            }
            title={`Replay ${plural(n)}?`}
            confirm={`Replay ${plural(n)}`}
            tone="primary"
            onConfirm={recover}
          >
            <p>
              {plural(n)} since {since ? full(since) : '—'} will be sent again, oldest first.
            </p>
          </ConfirmDialog>
        </div>
        <p role="status" className="text-sm text-slate-700">
          {done ||
            (since && count.data
              ? n === 0
                ? `No messages failed since ${full(since)}.`
                : `${plural(n)} since ${full(since)} will be sent again.`
              : '')}
        </p>
        {count.isError && <InlineError message={portalError(count.error).message} />}
      </div>
    </Card>
  );
}
