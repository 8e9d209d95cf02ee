/**
 * Weekly opening hours staff keep per practitioner and location: practitioner_availabilities rows of
 * type `open` (working hours) and `break`, each a weekday with HH:MM times in the clinic's zone, as the
 * availability search reads them (server/domain/scheduling/working-time.ts). Rules: the practitioner and
 * location are this clinic's and the practitioner works there; a row ends after it starts; working
 * hours of one practitioner at one place do not overlap on a day. Rows are deleted outright: nothing
 * refers to an availability row.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { locations, practitionerAvailabilities as table, practitioners } from '../../../db/schema';
import { invalid } from '../../errors';
import type { RecordType, StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import { practitionerAvailabilities } from '../../resources/practitioner_availabilities';
import type { WriteContext } from '../write-context';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

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
  if (!p.location_ids.includes(l.id)) throw invalid('location_id', `${p.name} does not work at this location: add it to their locations first`, 'invalid_input');
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
  if (clash) throw invalid('starts_at', `overlaps the working hours ${clash.starts_at}–${clash.ends_at} on ${DAY_NAMES[Number(row.day)]}`, 'validation_failed');
}

export const createOpeningHours = (w: WriteContext, input: StaffCreateInput<typeof practitionerAvailabilities>) =>
  createSetupRecord(w, practitionerAvailabilities, input, { check: (tx, after) => check(tx, w.account.id, after, null) });

export const updateOpeningHours = (w: WriteContext, id: number, input: StaffUpdateInput<typeof practitionerAvailabilities>) =>
  updateSetupRecord(w, practitionerAvailabilities, id, input, {
    check: async (tx, after, before) => {
      // Dated rows and the types staff do not keep here are edited elsewhere (the clinic software), not in the weekly grid.
      if (before?.day == null || (before.type !== 'open' && before.type !== 'break')) throw invalid('id', 'is not a weekly working-hours or break row', 'invalid_input');
      await check(tx, w.account.id, after, id);
    },
  });

export const deleteOpeningHours = (w: WriteContext, id: number) => deleteSetupRecord(w, practitionerAvailabilities, id);
