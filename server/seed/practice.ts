/** Loads the practice's tables (server/seed/tables/practice.ts) into an account: locations, staff, rooms, catalogue and the calendar's rows, dated ones placed relative to today. */
import type { Db } from '../../db/client';
import {
  appointmentTypes,
  billableItems,
  locations,
  modalities,
  paymentMethods,
  practitionerAvailabilities,
  practitioners,
  referralSources,
  resources,
  tags,
} from '../../db/schema';
import {
  MODALITIES,
  APPOINTMENT_TYPES,
  PRACTITIONERS,
  RESOURCES,
  TAGS,
  PAYMENT_METHODS,
  BILLABLE_ITEMS,
  REFERRAL_SOURCES,
  SHIFTS,
} from './tables/practice';
import type { Base, Profile, SeedRow } from './tables/practice';

export interface Refs {
  locationIds: number[];
  practitionerIds: number[];
  tagIds: number[];
  /** Active referral sources only: createPatient refuses inactive ones. */
  activeReferralSourceIds: number[];
}

/**
 * Ids in input order. Both dialects assign ids in VALUES order within one insert, but neither promises
 * RETURNING comes back in that order, hence the sort.
 */
export async function insertedIds(rows: PromiseLike<{ id: number }[]>): Promise<number[]> {
  return (await rows).map((r) => r.id).sort((a, b) => a - b);
}

export async function insertPractice(tx: Db, base: Base, profile: Profile, today: string): Promise<Refs> {
  const locationIds = await insertedIds(
    tx
      .insert(locations)
      .values(profile.locations.map((l) => ({ ...base, ...l })))
      .returning({ id: locations.id }),
  );

  await tx.insert(modalities).values(MODALITIES.map(([name, color]) => ({ ...base, name, color })));

  const typeIds = await insertedIds(
    tx
      .insert(appointmentTypes)
      .values(
        APPOINTMENT_TYPES.map((t) => ({
          ...base,
          max_attendees: 1,
          requires_resource: false,
          online_booking: true,
          active: true,
          ...t,
        })),
      )
      .returning({ id: appointmentTypes.id }),
  );

  const practitionerIds = await insertedIds(
    tx
      .insert(practitioners)
      .values(
        PRACTITIONERS.map(({ locations: locs, types, ...p }) => ({
          ...base,
          ...p,
          email: `${p.first_name}.${p.last_name}@example.com`.toLowerCase(),
          location_ids: locs.map((i) => locationIds[i]),
          appointment_type_ids: types.map((i) => typeIds[i]),
        })),
      )
      .returning({ id: practitioners.id }),
  );

  const resourceIds = await insertedIds(
    tx
      .insert(resources)
      .values(
        RESOURCES.map(({ location, ...r }, i) => ({
          ...base,
          status: 'active' as const,
          locked: false,
          ...r,
          location_id: locationIds[location],
          sort_order: sortOrderWithinLocation(i),
        })),
      )
      .returning({ id: resources.id }),
  );

  await tx
    .insert(practitionerAvailabilities)
    .values(availabilityRows(today, practitionerIds, locationIds, resourceIds).map((r) => ({ ...base, ...r })));

  const tagIds = await insertedIds(
    tx
      .insert(tags)
      .values(TAGS.map(([name, color], i) => ({ ...base, name, color, sort_order: i + 1 })))
      .returning({ id: tags.id }),
  );

  await tx
    .insert(paymentMethods)
    .values(PAYMENT_METHODS.map((m, i) => ({ ...base, active: true, ...m, sort_order: i + 1 })));

  await tx.insert(billableItems).values(
    BILLABLE_ITEMS.map(({ price, ...item }) => ({
      ...base,
      active: true,
      ...item,
      price_minor: scaledPrice(price, profile.priceScale),
      // Clinical services are tax-exempt in every region we serve; retail products are not.
      tax_rate_bp: item.item_type === 'product' ? profile.productTaxBp : 0,
    })),
  );

  const sourceIds = await insertedIds(
    tx
      .insert(referralSources)
      .values(REFERRAL_SOURCES.map((s) => ({ ...base, active: true, ...s })))
      .returning({ id: referralSources.id }),
  );

  return {
    practitionerIds,
    locationIds,
    tagIds,
    activeReferralSourceIds: sourceIds.filter((_, i) => REFERRAL_SOURCES[i].active !== false),
  };
}

/** 1, 2, 3… restarting at each location, as the calendar shows resource columns per site. */
function sortOrderWithinLocation(i: number): number {
  return RESOURCES.slice(0, i + 1).filter((r) => r.location === RESOURCES[i].location).length;
}

/** Prices are written for the UK; other regions scale them and round to a whole currency unit. */
function scaledPrice(minor: number, scale: number): number {
  return Math.round((minor * scale) / 100) * 100;
}

// ---------------------------------------------------------------------------------------------------
// Calendar

type NewAvailability = SeedRow<typeof practitionerAvailabilities.$inferInsert>;

/** Lunch sits at 13:00 when a shift spans it; short evening sessions have none. */
function lunchBreak(starts: string, ends: string): [string, string] | null {
  return starts <= '12:30' && ends >= '14:30' ? ['13:00', '13:45'] : null;
}

function availabilityRows(
  today: string,
  practitionerIds: number[],
  locationIds: number[],
  resourceIds: number[],
): NewAvailability[] {
  const rows: NewAvailability[] = [];
  for (const { p, day, loc, starts, ends } of SHIFTS) {
    const at = { practitioner_id: practitionerIds[p], location_id: locationIds[loc], day: String(day) };
    rows.push({
      ...at,
      type: 'open',
      starts_at: starts,
      ends_at: ends,
      online_booking: PRACTITIONERS[p].online_booking,
    });
    const lunch = lunchBreak(starts, ends);
    if (lunch)
      rows.push({
        ...at,
        type: 'break',
        starts_at: lunch[0],
        ends_at: lunch[1],
        description: 'Lunch',
        online_booking: false,
      });
  }

  // Guides steer bookings towards a type within open hours; they do not open time themselves.
  const guide = (
    p: number,
    loc: number,
    day: number,
    starts_at: string,
    ends_at: string,
    description: string,
    color: string,
    resource_id: number | null = null,
  ) =>
    rows.push({
      type: 'appt_guide',
      practitioner_id: practitionerIds[p],
      location_id: locationIds[loc],
      day: String(day),
      starts_at,
      ends_at,
      description,
      color,
      resource_id,
      online_booking: true,
    });
  guide(0, 0, 1, '08:00', '10:00', 'New patient assessments', '#2E75B6');
  guide(0, 1, 4, '09:00', '11:00', 'New patient assessments', '#2E75B6');
  guide(1, 2, 2, '18:00', '20:00', 'Club players: injury reviews', '#ED7D31');
  guide(2, 1, 2, '18:00', '19:00', 'Clinical Pilates class', '#7030A0', resourceIds[7]);
  guide(2, 1, 4, '18:00', '19:00', 'Clinical Pilates class', '#7030A0', resourceIds[7]);

  // One-off rows use wall-clock times in the account's time zone, on dates a few weeks ahead.
  const dated = (
    p: number | null,
    loc: number,
    date: string,
    starts: string,
    ends: string,
    extra: Partial<NewAvailability>,
  ) =>
    rows.push({
      practitioner_id: p === null ? null : practitionerIds[p],
      location_id: locationIds[loc],
      day: null,
      starts_at: `${date}T${starts}:00`,
      ends_at: `${date}T${ends}:00`,
      ...extra,
    });
  dated(0, 0, upcoming(today, 6, 1), '09:00', '13:00', {
    type: 'custom_availability',
    online_booking: true,
    description: 'Saturday morning clinic',
    color: '#70AD47',
  });
  dated(2, 1, upcoming(today, 3, 2), '17:00', '20:00', {
    type: 'custom_availability',
    online_booking: false,
    description: 'Extra evening session (phone bookings only)',
    color: '#A9D18E',
  });
  dated(1, 0, upcoming(today, 1, 2), '09:00', '17:00', {
    type: 'blockout',
    online_booking: false,
    description: 'CPD course: return-to-sport testing',
    color: '#C00000',
  });
  dated(0, 0, upcoming(today, 3, 1), '08:00', '09:00', {
    type: 'blockout',
    online_booking: false,
    description: 'Team meeting',
    color: '#7F7F7F',
    span_all_columns: true,
  });
  dated(3, 0, upcoming(today, 5, 2), '12:00', '14:00', {
    type: 'blockout',
    online_booking: false,
    description: 'Massage table servicing',
    color: '#FFC000',
    resource_id: resourceIds[3],
  });
  dated(2, 1, upcoming(today, 2, 3), '12:00', '20:00', {
    type: 'blockout',
    online_booking: false,
    description: 'Annual leave',
  });
  // A site closure is not one practitioner's: it spans every column of the location.
  dated(null, 1, upcoming(today, 1, 4), '00:00', '23:59', {
    type: 'closed',
    online_booking: false,
    description: 'Clinic closed: public holiday',
    color: '#404040',
    span_all_columns: true,
  });
  dated(null, 2, upcoming(today, 2, 3), '00:00', '23:59', {
    type: 'closed',
    online_booking: false,
    description: 'Pitch closed: end of season',
    span_all_columns: true,
  });
  return rows;
}

/** Today's date in the account's time zone, as YYYY-MM-DD. */
export function todayIn(timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}

/** The date of `weekday` (0 = Sunday) in the `week`-th week ahead: week 1 is the next such day after today. */
function upcoming(today: string, weekday: number, week: number): string {
  const start = new Date(`${today}T00:00:00Z`);
  const ahead = (weekday - start.getUTCDay() + 7) % 7 || 7;
  start.setUTCDate(start.getUTCDate() + ahead + 7 * (week - 1));
  return start.toISOString().slice(0, 10);
}
