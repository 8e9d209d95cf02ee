/**
 * Weekly opening hours staff keep per practitioner and location: practitioner_availabilities rows of
 * type `open` (working hours) and `break`, each a weekday with HH:MM times in the clinic's zone, as the
 * availability search reads them (server/domain/scheduling/working-time.ts). Rules: the practitioner and
 * location are this clinic's and the practitioner works there; a row ends after it starts; working
 * hours of one practitioner at one place do not overlap on a day. Rows are deleted outright: nothing
 * refers to an availability row.
 *
 * Dated exceptions (rows with a date instead of a weekday, wall times `YYYY-MM-DDTHH:MM:SS` in the
 * clinic's zone): `closed` (time off: a whole day is stored as that day's 00:00 to the next day's 00:00)
 * and `custom_availability` (extra hours). A date before today in the clinic's zone is refused: the
 * calendar of a day gone by is history, and changing it would move no slot anyone could still book.
 */
import { and, asc, eq, gte, inArray, isNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { locations, practitionerAvailabilities as table, practitioners } from '../../../db/schema';
import { ApiError, invalid, notFound } from '../../errors';
import type { RecordType, StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import {
  practitionerAvailabilities,
  STAFF_EXCEPTION_TYPES,
  type staffExceptionInput,
  type staffClosureInput,
  type staffExceptionUpdate,
} from '../../resources/practitioner_availabilities';
import { WEEKDAYS } from '../../resources/staff-inputs';
import { addDays, clockFor } from '../../values/wall-time';
import type { WriteContext } from '../write-context';
import { recordId } from '../../resources/fields';
import {
  createSetupRecord,
  deleteSetupRecord,
  insertSetupRow,
  removeSetupRow,
  updateSetupRecord,
} from './setup-writes';

type Row = RecordType<typeof practitionerAvailabilities>;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

async function check(tx: Db, accountId: number, row: Row, id: number | null) {
  const [p] = await tx
    .select({ location_ids: practitioners.location_ids, name: practitioners.first_name })
    .from(practitioners)
    .where(and(eq(practitioners.account_id, accountId), eq(practitioners.id, row.practitioner_id!)));
  if (!p) throw invalid('practitioner_id', 'is not a practitioner of this clinic', 'practitioner_not_found');
  const [l] = await tx
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.account_id, accountId), eq(locations.id, row.location_id!)));
  if (!l) throw invalid('location_id', 'is not a location of this clinic', 'location_not_found');
  if (!p.location_ids.includes(l.id))
    throw invalid(
      'location_id',
      `${p.name} does not work at this location: add it to their locations first`,
      'invalid_input',
    );
  if (row.ends_at! <= row.starts_at!) throw invalid('ends_at', 'must be after the start', 'validation_failed');
  if (row.type !== 'open') return;
  const sameDay = await tx
    .select({ starts_at: table.starts_at, ends_at: table.ends_at })
    .from(table)
    .where(
      and(
        eq(table.account_id, accountId),
        eq(table.practitioner_id, row.practitioner_id!),
        eq(table.location_id, row.location_id!),
        eq(table.day, row.day!),
        eq(table.type, 'open'),
        ...(id == null ? [] : [ne(table.id, id)]),
      ),
    );
  // HH:MM strings compare in time order.
  const clash = sameDay.find((o) => o.starts_at! < row.ends_at! && row.starts_at! < o.ends_at!);
  if (clash)
    throw invalid(
      'starts_at',
      `overlaps the working hours ${clash.starts_at}–${clash.ends_at} on ${DAY_NAMES[Number(row.day)]}`,
      'validation_failed',
    );
}

export const createOpeningHours = (w: WriteContext, input: StaffCreateInput<typeof practitionerAvailabilities>) =>
  createSetupRecord(w, practitionerAvailabilities, input, {
    check: (tx, after) => check(tx, w.account.id, after, null),
  });

export const updateOpeningHours = (
  w: WriteContext,
  id: number,
  input: StaffUpdateInput<typeof practitionerAvailabilities>,
) =>
  updateSetupRecord(w, practitionerAvailabilities, id, input, {
    check: async (tx, after, before) => {
      // Dated rows and the types staff do not keep here are edited elsewhere (the clinic software), not in the weekly grid.
      if (before?.day == null || (before.type !== 'open' && before.type !== 'break'))
        throw invalid('id', 'is not a weekly working-hours or break row', 'invalid_input');
      await check(tx, w.account.id, after, id);
    },
  });

export const deleteOpeningHours = (w: WriteContext, id: number) => deleteSetupRecord(w, practitionerAvailabilities, id);

type ExceptionInput = import('zod').output<typeof staffExceptionInput>;
type ExceptionUpdate = import('zod').output<typeof staffExceptionUpdate>;
type ExceptionType = (typeof STAFF_EXCEPTION_TYPES)[number];

/** A dated row as staff read it: its date, and HH:MM times (both null for a whole day). */
export interface ExceptionView {
  date: string;
  whole_day: boolean;
  from: string | null;
  to: string | null;
}

export function exceptionView(row: { starts_at: string | null; ends_at: string | null }): ExceptionView {
  const date = row.starts_at!.slice(0, 10);
  const from = row.starts_at!.slice(11, 16);
  const [endDate, endTime] = [row.ends_at!.slice(0, 10), row.ends_at!.slice(11, 16)];
  // A row stored elsewhere (the clinic software) may run over several days: its end then names its date.
  const to =
    endDate === date
      ? endTime
      : endDate === addDays(date, 1) && endTime === '00:00'
        ? '24:00'
        : `${endDate} ${endTime}`;
  const whole = from === '00:00' && to === '24:00';
  return { date, whole_day: whole, from: whole ? null : from, to: whole ? null : to };
}

const conflict = (message: string) => new ApiError('conflict', message);
const exceptionTypeOf = (type: string | null): ExceptionType | undefined =>
  STAFF_EXCEPTION_TYPES.find((t) => t === type);

/** Today in the clinic's zone, on the write's clock. */
const todayOf = (w: WriteContext) =>
  clockFor(w.account.timezone)
    .toWall(w.now?.() ?? Date.now())
    .slice(0, 10);

/** The stored wall times of a date and its hours; refuses a past date, half a range, and a whole day of extra hours. */
function datedRange(w: WriteContext, type: ExceptionType, date: string, from: string | null, to: string | null) {
  const today = todayOf(w);
  if (date < today)
    throw invalid(
      'date',
      `is in the past: choose today (${today}) or a later date`,
      'validation_failed',
      `The date ${date} is in the past`,
    );
  if ((from == null) !== (to == null))
    throw invalid(from == null ? 'starts_at' : 'ends_at', 'Enter both times, or neither for the whole day');
  if (from == null || to == null) {
    if (type === 'custom_availability') throw invalid('starts_at', 'Enter the extra hours (from and to)');
    return { starts_at: `${date}T00:00:00`, ends_at: `${addDays(date, 1)}T00:00:00` };
  }
  if (to <= from) throw invalid('ends_at', 'must be after the start');
  return {
    starts_at: `${date}T${from}:00`,
    ends_at: to === '24:00' ? `${addDays(date, 1)}T00:00:00` : `${date}T${to}:00`,
  };
}

/** Upcoming dated exceptions (today on) of a practitioner at a location, earliest first. */
export async function upcomingExceptions(w: WriteContext, practitionerId: number, locationId: number) {
  const rows = await w.db.db
    .select()
    .from(table)
    .where(
      and(
        eq(table.account_id, w.account.id),
        eq(table.practitioner_id, practitionerId),
        eq(table.location_id, locationId),
        isNull(table.day),
        inArray(table.type, [...STAFF_EXCEPTION_TYPES]),
        // Wall times sort as text: a row that ends after today began is still to come.
        gte(table.ends_at, `${todayOf(w)}T00:00:01`),
      ),
    )
    .orderBy(asc(table.starts_at), asc(table.id));
  return rows.map((r) => ({ ...practitionerAvailabilities.toRecord(r), ...exceptionView(r) }));
}

/** The staff record of a dated row (the declaration's fields with the date read out). */
const withView = (r: Row) => ({ ...r, ...exceptionView(r) });

export async function createException(w: WriteContext, input: ExceptionInput) {
  const { date, starts_at: from, ends_at: to, ...rest } = input;
  const range = datedRange(w, input.type, date, from, to);
  // Stored as the declaration's attributes: a dated row has no weekday. Cast: the staff input describes
  // the weekly grid's rows (a weekday required); a dated row is the same resource stored without one.
  const stored = { ...rest, ...range, day: null } as unknown as StaffCreateInput<typeof practitionerAvailabilities>;
  return withView(
    await createSetupRecord(w, practitionerAvailabilities, stored, {
      check: (tx, after) => check(tx, w.account.id, after, null),
    }),
  );
}

export async function updateException(w: WriteContext, id: number, input: ExceptionUpdate) {
  const { date, starts_at: from, ends_at: to, ...rest } = input;
  const before = await datedRow(w, id);
  const was = exceptionView(before);
  const hours =
    from !== undefined || to !== undefined ? { from: from ?? null, to: to ?? null } : { from: was.from, to: was.to };
  // A change of the note alone leaves the date and times as stored.
  const when = date !== undefined || from !== undefined || to !== undefined || rest.type !== undefined;
  const range = when ? datedRange(w, rest.type ?? before.type, date ?? was.date, hours.from, hours.to) : {};
  // Cast: as createException's, a dated row's change is the grid's input without a weekday.
  const stored = { ...rest, ...range } as StaffUpdateInput<typeof practitionerAvailabilities>;
  return withView(
    await updateSetupRecord(w, practitionerAvailabilities, id, stored, {
      check: async (tx, after, current) => {
        // The times were worked out from the row read above: a change in between asks for a fresh look.
        if (!current || current.starts_at !== before.starts_at || current.ends_at !== before.ends_at)
          throw conflict('The exception changed meanwhile: reload and try again');
        await check(tx, w.account.id, after, id);
      },
    }),
  );
}

/** A dated exception of this clinic, or 404 (a weekly row is not one). */
async function datedRow(w: WriteContext, id: number) {
  const [row] = await w.db.db
    .select()
    .from(table)
    .where(and(eq(table.account_id, w.account.id), eq(table.id, id)));
  const type = row && row.day == null ? exceptionTypeOf(row.type) : undefined;
  if (!row || !type || !row.starts_at || !row.ends_at) throw notFound('Dated exception');
  return { ...row, type };
}

export async function deleteException(w: WriteContext, id: number) {
  await datedRow(w, id);
  return deleteSetupRecord(w, practitionerAvailabilities, id);
}

/** What "copy a day" takes: a practitioner at a location, the weekday copied and the weekdays it goes to. */
export const copyDayInput = z.strictObject({
  practitioner_id: recordId,
  location_id: recordId,
  from_day: z.enum(WEEKDAYS, 'Choose a day of the week'),
  to_days: z
    .array(z.enum(WEEKDAYS, 'Choose days of the week'), 'Choose the days to copy to')
    .min(1, 'Choose at least one day to copy to')
    .max(6),
});

/**
 * One weekday's working hours and breaks copied to other weekdays, replacing theirs (review point 13:
 * Mon–Fri took five Add clicks), in one transaction: each row removed and added is audited and announced
 * as if done by hand, and a refusal (a rule a row breaks) leaves every day as it was.
 */
export async function copyDayHours(w: WriteContext, input: z.output<typeof copyDayInput>) {
  const { practitioner_id, location_id, from_day } = input;
  const to = [...new Set(input.to_days)].filter((d) => d !== from_day);
  return w.db.transaction(async (tx) => {
    const ofDay = (day: string) =>
      tx
        .select()
        .from(table)
        .where(
          and(
            eq(table.account_id, w.account.id),
            eq(table.practitioner_id, practitioner_id),
            eq(table.location_id, location_id),
            eq(table.day, day),
            inArray(table.type, ['open', 'break']),
          ),
        )
        .orderBy(asc(table.starts_at), asc(table.id));
    const source = await ofDay(from_day);
    if (!source.length) throw invalid('from_day', `${DAY_NAMES[Number(from_day)]} has no hours to copy`);
    for (const day of to) {
      for (const r of await ofDay(day)) await removeSetupRow(tx, w, practitionerAvailabilities, r.id);
      for (const r of source) {
        const row = practitionerAvailabilities.staffCreateInput.parse({
          practitioner_id,
          location_id,
          day,
          type: r.type,
          starts_at: r.starts_at,
          ends_at: r.ends_at,
        });
        await insertSetupRow(tx, w, practitionerAvailabilities, row, {
          check: (t, after) => check(t, w.account.id, after, null),
        });
      }
    }
    return { rows: source.length, days: to.map((d) => DAY_NAMES[Number(d)]) };
  });
}

type ClosureInput = z.output<typeof staffClosureInput>;

/** A closure as the page lists it: its date and hours, the location it closes, its note. */
const closureView = (r: typeof table.$inferSelect, locationName: string) => ({
  id: r.id,
  location_id: r.location_id!,
  location: locationName,
  description: r.description,
  ...exceptionView(r),
});

/**
 * Closes one location, or every location, on a date (whole day, or some hours) for everyone: a dated
 * `closed` row without a practitioner per location, in one transaction, each audited and announced.
 */
export async function createClosure(w: WriteContext, input: ClosureInput) {
  const range = datedRange(w, 'closed', input.date, input.starts_at, input.ends_at);
  return w.db.transaction(async (tx) => {
    const places = await tx
      .select({ id: locations.id, name: locations.name })
      .from(locations)
      .where(
        and(
          eq(locations.account_id, w.account.id),
          input.location_id == null ? undefined : eq(locations.id, input.location_id),
        ),
      )
      .orderBy(asc(locations.name), asc(locations.id));
    if (!places.length)
      throw input.location_id == null
        ? invalid('location_id', 'The clinic has no locations yet: add one on Locations first')
        : invalid('location_id', 'is not a location of this clinic', 'location_not_found');
    const made = [];
    for (const place of places) {
      // Cast: a closure is a dated row (no weekday, no practitioner), as createException's.
      const stored = {
        location_id: place.id,
        type: 'closed',
        day: null,
        description: input.description ?? null,
        ...range,
      } as unknown as StaffCreateInput<typeof practitionerAvailabilities>;
      const id = await insertSetupRow(tx, w, practitionerAvailabilities, stored, {
        // Not a practitioner's: it closes the location for everyone, booked lanes too.
        stored: () => ({ practitioner_id: null, span_all_columns: true }),
      });
      made.push({ id, location: place.name });
    }
    return { data: made };
  });
}

/** The clinic's closures from today on, earliest first. */
export async function upcomingClosures(w: WriteContext) {
  const rows = await w.db.db
    .select({ row: table, location: locations.name })
    .from(table)
    .innerJoin(locations, and(eq(locations.account_id, table.account_id), eq(locations.id, table.location_id)))
    .where(
      and(
        eq(table.account_id, w.account.id),
        isNull(table.practitioner_id),
        isNull(table.day),
        eq(table.type, 'closed'),
        gte(table.ends_at, `${todayOf(w)}T00:00:01`),
      ),
    )
    .orderBy(asc(table.starts_at), asc(locations.name), asc(table.id));
  return rows.map((r) => closureView(r.row, r.location));
}

/** Removes a closure (only a clinic-wide one: a practitioner's time off is removed on their hours). */
export async function deleteClosure(w: WriteContext, id: number) {
  const [row] = await w.db.db
    .select({ practitioner_id: table.practitioner_id, type: table.type, day: table.day })
    .from(table)
    .where(and(eq(table.account_id, w.account.id), eq(table.id, id)));
  if (!row || row.practitioner_id != null || row.day != null || row.type !== 'closed') throw notFound('Closure');
  return deleteSetupRecord(w, practitionerAvailabilities, id);
}
