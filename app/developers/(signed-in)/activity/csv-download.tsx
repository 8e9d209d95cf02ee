'use client';
/** Download the filtered activity as CSV: built by the server (activity.export) from the same filters as the list, so it holds every matching entry, not only the loaded pages. */
import { useState } from 'react';
import { Button, InlineError } from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';
import type { ActivityFilters } from './activity-log';

export function CsvDownload({ filters, disabled }: { filters: ActivityFilters; disabled: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const download = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const { csv, rows, truncated } = await portal.activity.export.query(filters);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `activity-${new Date().toISOString().slice(0, 10)}.csv`;
      a.click();
      URL.revokeObjectURL(url);
      setNote(
        truncated
          ? `Downloaded the newest ${rows.toLocaleString('en-GB')} entries; older ones were left out. Narrow the dates to download them.`
          : `Downloaded ${rows.toLocaleString('en-GB')} ${rows === 1 ? 'entry' : 'entries'}.`,
      );
    } catch (err) {
      setError(`The CSV was not downloaded. ${portalError(err).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <Button tone="secondary" onClick={() => void download()} disabled={disabled || busy}>
        {busy ? 'Preparing CSV…' : 'Download CSV'}
      </Button>
      <InlineError message={error} />
      {note && (
        <p role="status" className="mt-1 text-xs text-slate-600">
          {note}
        </p>
      )}
    </div>
  );
}
