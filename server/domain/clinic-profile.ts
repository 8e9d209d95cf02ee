/**
 * A clinic's profile: the name, time zone, currency and language `clinic account create` fixed, changed
 * later by a member with the practice setup permission (portal Practice → Clinic profile) or with
 * `clinic account update`. The rules are the ones account creation checks (one definition, here).
 *
 * What a change does to what is already there (said on the page before saving, docs/decisions.md):
 * - Time zone: appointments keep their clinic times (a 09:00 appointment stays at 09:00, as do opening
 *   hours); the instants those times mean move, so each appointment's `starts_at_utc`/`ends_at_utc` is
 *   recomputed and the appointment announced (`appointments.updated`) in the same transaction, and every
 *   diary's cached availability is dropped. Refused while an appointment's time does not exist in the
 *   new zone (skipped when its clocks go forward).
 * - Currency: amounts are stored without a currency, so it changes only while the clinic has no invoice
 *   or payment on record; billable items keep their prices, read in the new currency.
 * - Language: the default of patients created later; existing patients keep theirs.
 * The country is not here: it follows the region (server/values/phone.ts), which the clinic's data lives in.
 */
import { and, asc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbHandle } from '../../db/client';
import { accounts, appointments, invoices, LOCALES, payments } from '../../db/schema';
import type { Account } from '../context';
import { ApiError } from '../errors';
import { announce, recordActivity, type Actor } from '../events/record';
import { accountCountry } from '../values/phone';
import { clockFor } from '../values/wall-time';
import { touchCalendars } from './practice/setup-writes';
import { bumpDiaries } from './scheduling/diary-version';
import { pickKeys, withoutUndefined } from '../values/keys';

/** The audit trail's entity for a change of the profile (entity_id = the account). */
export const CLINIC_PROFILE_ENTITY = 'clinic_profile';

/** The zone's own spelling ("europe/london" is Europe/London), or null when there is no such zone. */
const canonicalZone = (zone: string): string | null => {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
};
/** ISO 4217 codes this runtime can format (every currency in use; the 2-decimal rule is server/values/money.ts). */
export const CURRENCIES: readonly string[] = Intl.supportedValuesOf('currency');
export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

export const clinicNameRule = z
  .string('Enter the clinic’s name')
  .trim()
  .min(1, 'Enter the clinic’s name')
  .max(255, 'Use at most 255 characters');
export const timeZoneRule = z.string('Choose a time zone').transform((zone, ctx) => {
  const canonical = canonicalZone(zone);
  if (canonical === null) ctx.addIssue({ code: 'custom', message: 'Choose an IANA time zone such as Europe/London' });
  return canonical ?? z.NEVER;
});
export const currencyRule = z
  .string('Choose a currency')
  .refine((c) => CURRENCIES.includes(c), 'Choose an ISO 4217 currency code such as GBP');
export const localeRule = z.enum(LOCALES, `Choose one of ${LOCALES.join(', ')}`);

/** What the page and the CLI may change; each field optional, none unknown. */
export const clinicProfileInput = z.strictObject({
  name: clinicNameRule.optional(),
  timezone: timeZoneRule.optional(),
  currency: currencyRule.optional(),
  locale: localeRule.optional(),
});
export type ClinicProfileInput = z.infer<typeof clinicProfileInput>;

/** Counts above this read as "more than" (the list engine's cap for totals too). */
export const COUNT_CAP = 10_000;

type Editable = 'name' | 'timezone' | 'currency' | 'locale';
export const EDITABLE: readonly Editable[] = ['name', 'timezone', 'currency', 'locale'];

/** The profile with what a change would touch: the page says it before saving. */
export async function clinicProfileOf(db: Db, account: Pick<Account, 'id' | 'region'>) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, account.id));
  // Counted up to the cap (a big clinic's millions of appointments are not read for a sentence): more
  // reads as "more than 10,000".
  const counted = async (table: typeof appointments | typeof invoices | typeof payments) =>
    (
      await db
        .select({ id: table.id })
        .from(table)
        .where(eq(table.account_id, account.id))
        .limit(COUNT_CAP + 1)
    ).length;
  const [appointmentCount, invoiceCount, paymentCount] = [
    await counted(appointments),
    await counted(invoices),
    await counted(payments),
  ];
  return {
    data: {
      name: row.name,
      timezone: row.timezone,
      currency: row.currency,
      locale: row.locale,
      country: accountCountry(row) ?? null,
      region: row.region,
      subdomain: row.subdomain,
    },
    consequences: {
      /** Appointments (deleted ones included: their instants are kept too) a time zone change rewrites; COUNT_CAP + 1 means more. */
      appointments: appointmentCount,
      /** The currency is fixed while any of these exist. */
      currency_locked: invoiceCount + paymentCount > 0,
      invoices: invoiceCount,
      payments: paymentCount,
    },
  };
}

const BATCH = 500;

/** Changes the profile in one transaction, with the time zone's consequences; the activity log says what changed. */
export async function updateClinicProfile(
  db: DbHandle,
  account: Pick<Account, 'id'>,
  actor: Actor,
  patch: ClinicProfileInput,
  at = new Date().toISOString(),
): Promise<Record<Editable, string>> {
  return db.transaction(async (tx) => {
    // No row lock (accounts is a reference table on Citus): of two changes at once the later commit wins,
    // and its instants were computed from the same clinic times in its own zone.
    const [before] = await tx.select().from(accounts).where(eq(accounts.id, account.id));
    const after = { ...before, ...withoutUndefined(patch) };
    const changed = EDITABLE.filter((k) => before[k] !== after[k]);
    if (!changed.length) return pick(before);
    if (changed.includes('currency')) await refuseCurrencyWithMoney(tx, account.id, before.currency);
    if (changed.includes('timezone')) await moveInstants(tx, account.id, after.timezone, at);
    await tx
      .update(accounts)
      .set({ ...Object.fromEntries(changed.map((k) => [k, after[k]])), updated_at: at })
      .where(eq(accounts.id, account.id));
    const changes = Object.fromEntries(changed.map((k) => [k, { from: before[k], to: after[k] }]));
    await recordActivity(tx, account.id, actor, CLINIC_PROFILE_ENTITY, account.id, 'updated', changes);
    return pick(after);
  });
}

const pick = (row: Record<Editable, string>): Record<Editable, string> => pickKeys(row, EDITABLE);

async function refuseCurrencyWithMoney(tx: Db, accountId: number, currency: string) {
  const [invoice] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.account_id, accountId))
    .limit(1);
  const [payment] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.account_id, accountId))
    .limit(1);
  if (!invoice && !payment) return;
  const message = `The currency stays ${currency}: the clinic's invoices and payments are amounts in ${currency}, stored without a currency of their own`;
  throw new ApiError('validation_failed', message, { currency: [message] });
}

/**
 * Every appointment keeps its clinic times; their instants are read again in the new zone, stamped and
 * announced. Refused, changing nothing, when a clinic time does not exist there.
 */
async function moveInstants(tx: Db, accountId: number, zone: string, at: string) {
  const clock = clockFor(zone);
  const skipped: string[] = [];
  const diaries = new Map<string, { practitioner_id: number; resource_id: number | null }>();
  for (let after = 0; ;) {
    const rows = await tx
      .select({
        id: appointments.id,
        starts_at: appointments.starts_at,
        ends_at: appointments.ends_at,
        starts_utc: appointments.starts_utc,
        ends_utc: appointments.ends_utc,
        deleted_at: appointments.deleted_at,
        practitioner_id: appointments.practitioner_id,
        resource_id: appointments.resource_id,
      })
      .from(appointments)
      .where(and(eq(appointments.account_id, accountId), gt(appointments.id, after)))
      .orderBy(asc(appointments.id))
      .limit(BATCH);
    if (!rows.length) break;
    after = rows[rows.length - 1].id;
    for (const r of rows) {
      const start = clock.toUtc(r.starts_at);
      const end = clock.toUtc(r.ends_at);
      if (start === null || end === null) {
        if (!r.deleted_at) skipped.push(`#${r.id} at ${start === null ? r.starts_at : r.ends_at}`);
        continue;
      }
      const starts_utc = new Date(start).toISOString();
      const ends_utc = new Date(end).toISOString();
      if (Date.parse(r.starts_utc) === start && Date.parse(r.ends_utc) === end) continue;
      diaries.set(`${r.practitioner_id}:${r.resource_id}`, r);
      await tx
        .update(appointments)
        .set({ starts_utc, ends_utc, ...(r.deleted_at ? {} : { updated_at: at }) })
        .where(and(eq(appointments.account_id, accountId), eq(appointments.id, r.id)));
      if (!r.deleted_at) await announce(tx, accountId, 'appointments.updated', 'appointments', r.id, at);
    }
  }
  if (skipped.length) {
    const message = `${zone} skips the clinic time of ${skipped.length === 1 ? 'an appointment' : `${skipped.length} appointments`} (its clocks go forward then): move ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', …' : ''} first`;
    throw new ApiError('validation_failed', message, { timezone: [message] });
  }
  // Every diary's cached slots were read in the old zone (the practitioners' and the setup counters);
  // the rooms of moved appointments too.
  await bumpDiaries(tx, accountId, [...diaries.values()]);
  await touchCalendars(tx, accountId);
}
