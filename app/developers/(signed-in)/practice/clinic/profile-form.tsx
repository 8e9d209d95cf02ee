'use client';
/**
 * The clinic's profile (server/domain/clinic-profile.ts): name, time zone, currency and language, with
 * what a change does said before saving. A time zone change is confirmed in a dialog first: every
 * appointment's instant moves and is announced. Read-only without settings.manage.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import { Alert, Button, Card, Field, LoadFailed, Loading, Select } from '../../../_components/ui';
import { InputField } from '../../../_components/input-field';
import { useFormAction } from '../../../_lib/form';
import { portal, portalError } from '../../../_lib/trpc';

type Draft = { name: string; timezone: string; currency: string; locale: string };

// The account's language codes are the API's (spec: patients' `locale`); three are not ISO 639-1.
const ISO_LANGUAGE: Record<string, string> = { dk: 'da', po: 'pl', se: 'sv' };
const languageName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(ISO_LANGUAGE[code] ?? code) ?? code;
  } catch {
    return code;
  }
};
// Counts come capped at 10,000 (one more means more).
const plural = (n: number, one: string, many = `${one}s`) =>
  n > 10_000 ? `more than 10,000 ${many}` : `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

const DRAFT_KEYS = ['name', 'timezone', 'currency', 'locale'] as const;

/** The server's values, except where the draft differs from what it was started from. */
function rebase(draft: Draft | null, base: Draft | null, next: Draft): Draft {
  if (!draft || !base) return { ...next };
  const pick = (k: keyof Draft) => (draft[k] === base[k] ? next[k] : draft[k]);
  return { name: pick('name'), timezone: pick('timezone'), currency: pick('currency'), locale: pick('locale') };
}

export function ProfileForm({ canManage }: { canManage: boolean }) {
  const queries = useQueryClient();
  const current = useQuery({ queryKey: ['practice', 'profile'], queryFn: () => portal.practice.profile.get.query() });
  const [draft, setDraft] = useState<Draft | null>(null);
  // What the draft was started from (or last saved as): a field still equal to it was not touched.
  const base = useRef<Draft | null>(null);
  const sent = useRef<Draft | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const zoneSelect = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (!current.data) return;
    const next = current.data.data;
    // The refetch after a save can land after the person has started the next change (a new time
    // zone chosen): it refreshes only the fields they have not touched since, and keeps their choice.
    const was = base.current;
    setDraft((d) => rebase(d, was, next));
    base.current = next;
  }, [current.data]);
  const patch = () => {
    const was = current.data!.data;
    const d = draft!;
    return Object.fromEntries(DRAFT_KEYS.filter((k) => d[k] !== was[k]).map((k) => [k, d[k]]));
  };
  const done = () => {
    // What was sent is now the clinic's: the refetch may replace it with the server's form of it.
    base.current = sent.current;
    setSaved('Clinic profile saved.');
    void queries.invalidateQueries({ queryKey: ['practice', 'profile'] });
  };
  const { submit, pending, error } = useFormAction(() => {
    sent.current = { ...draft! };
    return portal.practice.profile.update.mutate(patch());
  }, done);

  const title = <h1 className="text-2xl font-semibold">Clinic profile</h1>;
  if (current.isPending || (current.data && !draft))
    return (
      <>
        {title}
        <Loading what="the clinic profile" />
      </>
    );
  if (current.isError)
    return (
      <>
        {title}
        <LoadFailed message={portalError(current.error).message} retry={() => void current.refetch()} />
      </>
    );
  const { data: was, consequences, choices } = current.data;
  const d = draft!;
  const set = (k: keyof Draft) => (v: string) => {
    setDraft({ ...d, [k]: v });
    setSaved(null);
  };
  const zoneChanged = d.timezone !== was.timezone;
  const fieldError = (k: keyof Draft) => error?.errors[k]?.[0];
  const other = error && !DRAFT_KEYS.some(fieldError) ? error.message : null;
  // The current value is always a choice, even when this browser's list lacks it (UTC in some).
  const withCurrent = (list: readonly string[], value: string) => (list.includes(value) ? list : [value, ...list]);

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      {title}
      <p className="text-sm text-slate-600">
        What <code>clinic account create</code> set for {was.subdomain}.{was.region}. The API gives the name, time zone
        and currency in <code>GET /v3/api/me</code>.
      </p>
      {!canManage && (
        <Alert tone="info">You can read the profile; changing it needs the “Manage practice setup” permission.</Alert>
      )}
      <Card>
        <form
          noValidate
          aria-label="Clinic profile"
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            if (zoneChanged) {
              e.preventDefault();
              setConfirming(true);
            } else submit(e);
          }}
        >
          <InputField
            id="profile-name"
            label="Clinic name"
            value={d.name}
            onValue={set('name')}
            error={fieldError('name')}
            disabled={!canManage}
            autoComplete="organization"
          />
          <Field
            id="profile-timezone"
            label="Time zone"
            error={fieldError('timezone')}
            hint="Every clinic time of the API (appointments, opening hours, availability) is in this zone."
          >
            <Select
              id="profile-timezone"
              ref={zoneSelect}
              value={d.timezone}
              onChange={(e) => set('timezone')(e.target.value)}
              error={fieldError('timezone')}
              disabled={!canManage}
            >
              {withCurrent(choices.timezones, was.timezone).map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll('_', ' ')}
                </option>
              ))}
            </Select>
          </Field>
          {zoneChanged && (
            <Alert tone="warning">
              <p className="font-medium">
                Changing the time zone from {was.timezone} to {d.timezone}:
              </p>
              <ul className="mt-1 list-disc pl-5">
                <li>
                  Appointments keep their clinic times (a 09:00 appointment stays at 09:00), and so do opening hours and
                  days off; the moments they mean move to {d.timezone}.
                </li>
                <li>
                  {consequences.appointments === 0
                    ? 'The clinic has no appointments yet, so nothing else changes.'
                    : `${plural(consequences.appointments, 'appointment')} get a new starts_at_utc and ends_at_utc, each announced as appointments.updated to the events feed and webhooks.`}
                </li>
                <li>Times the API gives with a zone (created_at, updated_at) do not change.</li>
              </ul>
            </Alert>
          )}
          <Field
            id="profile-currency"
            label="Currency"
            error={fieldError('currency')}
            hint={
              consequences.currency_locked
                ? `Fixed: the clinic's ${plural(consequences.invoices, 'invoice')} and ${plural(consequences.payments, 'payment')} are amounts in ${was.currency}.`
                : 'Prices of billable items keep their amounts, read in the new currency. Fixed once the first invoice or payment is made.'
            }
          >
            <Select
              id="profile-currency"
              value={d.currency}
              onChange={(e) => set('currency')(e.target.value)}
              error={fieldError('currency')}
              disabled={!canManage || consequences.currency_locked}
            >
              {withCurrent(choices.currencies, was.currency).map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id="profile-locale"
            label="Language"
            error={fieldError('locale')}
            hint="The language of patients created without one; patients already on file keep theirs."
          >
            <Select
              id="profile-locale"
              value={d.locale}
              onChange={(e) => set('locale')(e.target.value)}
              error={fieldError('locale')}
              disabled={!canManage}
            >
              {choices.locales.map((l) => (
                <option key={l} value={l}>
                  {languageName(l)} ({l})
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex flex-col gap-1">
            <span className="text-sm font-medium text-slate-700">Country</span>
            <p className="text-sm text-slate-800">
              {was.country ? `${regionCountry(was.country)} (${was.country})` : '—'}
            </p>
            <p className="text-xs text-slate-500">
              Set by the region ({was.region}) the clinic&apos;s data lives in, and not changed here: phone numbers
              written without a leading + are read as {was.country ?? 'its'} numbers, and stored numbers are found by
              that reading.
            </p>
          </div>
          {other && <Alert>{other}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          {canManage && (
            <div>
              <Button type="submit" disabled={pending || Object.keys(patch()).length === 0}>
                {pending ? 'Saving…' : 'Save profile'}
              </Button>
            </div>
          )}
        </form>
      </Card>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocus={zoneSelect}
        title={`Move the clinic to ${d.timezone}?`}
        confirm="Change the time zone"
        tone="primary"
        onConfirm={async () => {
          await portal.practice.profile.update.mutate(patch());
          done();
        }}
      >
        {consequences.appointments === 0
          ? `Clinic times will be read in ${d.timezone}.`
          : `Clinic times will be read in ${d.timezone}: ${plural(consequences.appointments, 'appointment')} keep their clinic times and move in UTC, each announced as appointments.updated.`}
      </ConfirmDialog>
    </div>
  );
}

const regionCountry = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
};
