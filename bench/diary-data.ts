/**
 * The scheduling benchmark's data, in the bench database: account `bench-diary` with one location,
 * 10 practitioners working Monday to Saturday 07:00-20:00 (lunch 12:30-13:00), and exactly 5,000
 * booked 30-minute appointments inside the 31 days the search covers (~3/4 of the diary). The calendar
 * is built once; the appointments are rebuilt every run, because the searched days move with today.
 *
 * Import after DATABASE_URL points at the bench file (see seed-data.ts).
 */
import Database, { type SqliteDatabase } from '../db/sqlite-driver';
import { openDb, type Db } from '../db/client';
import { appointmentTypes, locations, patients, practitionerAvailabilities, practitioners } from '../db/schema';
import { createAccount, findAccount } from '../server/domain/accounts';
import { createKey } from '../server/domain/api_keys';
import { addDays, clockFor, weekday } from '../server/values/wall-time';

export const DIARY_PRACTITIONERS = 10;
export const DIARY_APPOINTMENTS = 5_000;
export const DIARY_DAYS = 31;
const SUBDOMAIN = 'bench-diary';
const TZ = 'Europe/London';

export interface DiaryData {
  host: string;
  key: string;
  accountId: number;
  locationId: number;
  typeId: number;
  practitionerIds: number[];
  patientId: number;
  from: string;
  to: string;
  /** A working day after the searched range, empty before the booking storm. */
  stormDay: string;
  /** Free slots the search must find: the diary's capacity less the bookings. */
  expectedFree: number;
}

const log = (msg: string) => console.log(`[diary] ${msg}`);

export async function prepareDiary(file: string): Promise<DiaryData> {
  const handle = await openDb(file, { migrate: true });
  const raw = new Database(file);
  try {
    let account = await findAccount(handle, SUBDOMAIN);
    if (!account) {
      account = await createAccount(handle, {
        subdomain: SUBDOMAIN,
        region: 'neptune',
        name: 'Bench Diary',
        timezone: TZ,
        currency: 'GBP',
      });
      await handle.transaction((tx) => buildCalendar(tx, account!.id));
      log('built the calendar of account bench-diary');
    }
    const id = (sql: string) => (raw.prepare(sql).get(account!.id) as { id: number }).id;
    const locationId = id('SELECT min(id) AS id FROM locations WHERE account_id = ?');
    const typeId = id('SELECT min(id) AS id FROM appointment_types WHERE account_id = ?');
    const patientId = id('SELECT min(id) AS id FROM patients WHERE account_id = ?');
    const practitionerIds = (
      raw.prepare('SELECT id FROM practitioners WHERE account_id = ? ORDER BY id').all(account.id) as { id: number }[]
    ).map((r) => r.id);

    const clock = clockFor(TZ);
    const from = addDays(clock.today(), 1);
    const to = addDays(from, DIARY_DAYS - 1);
    let stormDay = addDays(to, 7);
    while (weekday(stormDay) === 0) stormDay = addDays(stormDay, 1);
    const capacity = bookDiary(raw, clock, {
      accountId: account.id,
      locationId,
      typeId,
      patientId,
      practitionerIds,
      from,
      to,
    });

    const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'bench' };
    const { secret } = await createKey(handle, account, actor, {
      name: `bench ${new Date().toISOString()}`,
      access: 'read_write',
    });
    return {
      host: `${SUBDOMAIN}.neptune.localhost`,
      key: secret,
      accountId: account.id,
      locationId,
      typeId,
      practitionerIds,
      patientId,
      from,
      to,
      stormDay,
      expectedFree: capacity - DIARY_APPOINTMENTS,
    };
  } finally {
    raw.close();
    await handle.close();
  }
}

async function buildCalendar(db: Db, accountId: number) {
  const now = new Date().toISOString();
  const base = { account_id: accountId, metadata: {}, created_at: now, updated_at: now };
  const [loc] = await db
    .insert(locations)
    .values({ ...base, name: 'Bench Site', online_booking: true })
    .returning({ id: locations.id });
  const [type] = await db
    .insert(appointmentTypes)
    .values({
      ...base,
      name: 'Follow-up',
      duration_minutes: 30,
      online_booking: true,
      active: true,
      requires_resource: false,
    })
    .returning({ id: appointmentTypes.id });
  const people = await db
    .insert(practitioners)
    .values(
      Array.from({ length: DIARY_PRACTITIONERS }, (_, i) => ({
        ...base,
        first_name: `Practitioner${i + 1}`,
        last_name: 'Bench',
        active: true,
        online_booking: true,
        location_ids: [loc.id],
        appointment_type_ids: [type.id],
      })),
    )
    .returning({ id: practitioners.id });
  const rows = people.flatMap(({ id }) =>
    [1, 2, 3, 4, 5, 6].flatMap((day) => [
      {
        ...base,
        practitioner_id: id,
        location_id: loc.id,
        day: String(day),
        type: 'open' as const,
        starts_at: '07:00',
        ends_at: '20:00',
        online_booking: true,
      },
      {
        ...base,
        practitioner_id: id,
        location_id: loc.id,
        day: String(day),
        type: 'break' as const,
        starts_at: '12:30',
        ends_at: '13:00',
        online_booking: false,
      },
    ]),
  );
  await db.insert(practitionerAvailabilities).values(rows);
  await db
    .insert(patients)
    .values({ ...base, first_name: 'Bench', last_name: 'Patient', blocked: false, communication_preferences: {} });
}

/** Replaces every appointment of the account with DIARY_APPOINTMENTS bookings spread over the range. */
function bookDiary(
  raw: SqliteDatabase,
  clock: ReturnType<typeof clockFor>,
  d: {
    accountId: number;
    locationId: number;
    typeId: number;
    patientId: number;
    practitionerIds: number[];
    from: string;
    to: string;
  },
): number {
  const free: [string, number][] = [];
  for (let day = d.from; day <= d.to; day = addDays(day, 1)) {
    if (weekday(day) === 0) continue;
    for (let m = 7 * 60; m < 20 * 60; m += 30) {
      if (m === 12 * 60 + 30) continue;
      const wall = `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
      for (const p of d.practitionerIds) free.push([wall, p]);
    }
  }
  if (free.length < DIARY_APPOINTMENTS) throw new Error(`only ${free.length} slots in the range`);
  // A fixed shuffle (LCG), so every run books the same pattern.
  let seed = 42;
  for (let i = free.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [free[i], free[j]] = [free[j], free[i]];
  }
  const now = new Date().toISOString();
  const insert =
    raw.prepare(`INSERT INTO appointments (account_id, patient_id, practitioner_id, location_id, appointment_type_id, starts_at, ends_at,
      starts_utc, ends_utc, status, allow_clash, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'booked', 0, '{}', ?, ?)`);
  raw.transaction(() => {
    raw.prepare('DELETE FROM appointments WHERE account_id = ?').run(d.accountId);
    for (const [wall, p] of free.slice(0, DIARY_APPOINTMENTS)) {
      const start = clock.toUtc(wall)!;
      insert.run(
        d.accountId,
        d.patientId,
        p,
        d.locationId,
        d.typeId,
        wall,
        clock.toWall(start + 1_800_000),
        new Date(start).toISOString(),
        new Date(start + 1_800_000).toISOString(),
        now,
        now,
      );
    }
  })();
  log(`booked ${DIARY_APPOINTMENTS} appointments from ${d.from} to ${d.to} (${free.length} slots in all)`);
  return free.length;
}

/** Pairs of live appointments of one practitioner that overlap: must be zero. */
export function doubleBookings(file: string, accountId: number): number {
  const raw = new Database(file, { readonly: true });
  try {
    return (
      raw
        .prepare(
          `SELECT count(*) AS n FROM appointments a JOIN appointments b
             ON b.account_id = a.account_id AND b.practitioner_id = a.practitioner_id AND b.id > a.id
            AND b.starts_utc < a.ends_utc AND a.starts_utc < b.ends_utc
          WHERE a.account_id = ? AND a.deleted_at IS NULL AND b.deleted_at IS NULL AND a.status <> 'cancelled' AND b.status <> 'cancelled'`,
        )
        .get(accountId) as { n: number }
    ).n;
  } finally {
    raw.close();
  }
}
