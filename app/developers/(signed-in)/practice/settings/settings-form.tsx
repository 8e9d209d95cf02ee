'use client';
/**
 * How the practice runs (server/domain/practice_settings.ts): for now whether the clinic job marks
 * unarrived appointments missed, and how many hours after they end. Saved together; each change is in
 * the audit trail with the member. Read-only without settings.manage.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Field, LoadFailed, Loading, TextInput } from '../../../_components/ui';
import { useFormAction } from '../../../_lib/form';
import { portal, portalError } from '../../../_lib/trpc';

export function SettingsForm({ canManage }: { canManage: boolean }) {
  const queries = useQueryClient();
  const current = useQuery({ queryKey: ['practice', 'settings'], queryFn: () => portal.practice.settings.get.query() });
  const [markMissed, setMarkMissed] = useState(false);
  const [hours, setHours] = useState('2');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!current.data) return;
    setMarkMissed(current.data.data.mark_missed);
    setHours(String(current.data.data.mark_missed_after_hours));
  }, [current.data]);
  const { submit, pending, error } = useFormAction(
    // Off, the hours are kept as they were. On, a blank box is sent as no number, so the server's rule says what is wrong.
    () =>
      portal.practice.settings.update.mutate({
        mark_missed: markMissed,
        mark_missed_after_hours: markMissed ? (hours.trim() === '' ? Number.NaN : Number(hours)) : undefined,
      }),
    () => {
      setSaved(true);
      void queries.invalidateQueries({ queryKey: ['practice', 'settings'] });
    },
  );

  const title = <h1 className="text-2xl font-semibold">Practice settings</h1>;
  if (current.isPending)
    return (
      <>
        {title}
        <Loading what="practice settings" />
      </>
    );
  if (current.isError)
    return (
      <>
        {title}
        <LoadFailed message={portalError(current.error).message} retry={() => void current.refetch()} />
      </>
    );
  const { min, max } = current.data.limits.mark_missed_after_hours;
  const hoursError = error?.errors.mark_missed_after_hours?.[0];
  const other = error && !hoursError ? error.message : null;

  return (
    <div className="flex flex-col gap-6">
      {title}
      {!canManage && (
        <Alert tone="info">
          You can read these settings; changing them needs the “Manage practice setup” permission.
        </Alert>
      )}
      <Card title="Missed appointments">
        <form onSubmit={submit} noValidate aria-label="Missed appointments" className="flex flex-col gap-4">
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4"
              checked={markMissed}
              disabled={!canManage}
              onChange={(e) => {
                setMarkMissed(e.target.checked);
                setSaved(false);
              }}
            />
            <span>
              <span className="font-medium">Mark unarrived appointments missed</span>
              <span className="block text-slate-600">
                A booked appointment nobody marked arrived or cancelled becomes missed some hours after it ends (checked
                every 10 minutes).
              </span>
            </span>
          </label>
          <Field
            id="missed-hours"
            label="Hours after the appointment ends"
            error={hoursError}
            hint={`A whole number from ${min} to ${max}.`}
          >
            <TextInput
              id="missed-hours"
              type="number"
              inputMode="numeric"
              min={min}
              max={max}
              step={1}
              value={hours}
              disabled={!canManage || !markMissed}
              onChange={(e) => {
                setHours(e.target.value);
                setSaved(false);
              }}
              error={hoursError}
            />
          </Field>
          {other && (
            <p role="alert" className="text-sm text-red-700">
              {other}
            </p>
          )}
          {canManage && (
            <div className="flex items-center gap-3">
              <Button type="submit" disabled={pending}>
                {pending ? 'Saving…' : 'Save settings'}
              </Button>
              <p role="status" className="text-sm text-green-800">
                {saved ? 'Settings saved.' : ''}
              </p>
            </div>
          )}
        </form>
      </Card>
    </div>
  );
}
