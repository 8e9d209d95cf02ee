/**
 * The sample practice: a three-site physiotherapy clinic with staff, calendar, catalogue and patients,
 * loaded into one account for demos, local development and the API tests (`clinic seed`, `npm run demo`,
 * `newClinic({ seed: true })`).
 *
 * Everything is derived from fixed tables and the row index, never from randomness, so every seeded
 * account has the same shape; only dated calendar rows move, because they are placed relative to today.
 * Addresses, phone numbers, tax and prices follow the account's region so that numbers pass the same
 * libphonenumber check as API writes (which defaults to the region's country).
 */
import { eq } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import type { Metadata } from '../../db/dialect';
import {
  accounts,
  appointmentTypes,
  billableItems,
  locations,
  modalities,
  carePlanMembers,
  carePlans,
  clinicalNotes,
  formTemplates,
  patientLogTags,
  patientLogs,
  patientTags,
  paymentMethods,
  practitionerAvailabilities,
  practitioners,
  referralSources,
  resources,
  tags,
} from '../../db/schema';
import type { Account } from '../context';
import type { FileStore } from '../files/store';
import { uploadFile } from '../domain/files';
import { seedAppointments } from './appointments';
import { seedBilling } from './billing';
import { createPatient } from '../domain/patients/write';
import { updatePracticeSettings } from '../domain/practice_settings';
import type { WriteContext } from '../domain/write-context';
import type { CreateInput } from '../resources/define';
import type { patients as patientResource } from '../resources/patients';

export async function seedAccount(db: DbHandle, account: Account, store?: FileStore): Promise<{ created: boolean }> {
  const profile = PROFILES[account.region] ?? PROFILES.neptune;
  const now = new Date().toISOString();
  const base = { account_id: account.id, metadata: {} as Metadata, created_at: now, updated_at: now };

  const refs = await db.transaction(async (tx) => {
    // Two seeds racing on PostgreSQL would both see no locations; locking the account row serialises
    // them. SQLite needs nothing: its transactions start with BEGIN IMMEDIATE.
    if (db.dialect === 'pg')
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id)).for('update');
    const [existing] = await tx
      .select({ id: locations.id })
      .from(locations)
      .where(eq(locations.account_id, account.id))
      .limit(1);
    if (existing) return null;
    return insertPractice(tx, base, profile, todayIn(account.timezone));
  });
  if (!refs) return { created: false };

  // Patients go through the domain write (audit log, outbox events, phone normalisation). It opens its
  // own transaction, so it cannot run inside the one above. A failure from here on leaves a partly
  // seeded account that a re-run will not complete.
  const w: WriteContext = { db, account, actor: { actor_type: 'system', actor_id: null, actor_name: 'seed' } };
  const patientIds: number[] = [];
  for (let i = 0; i < PATIENTS.length; i++) {
    const p = await createPatient(w, patientInput(i, profile, refs, patientIds));
    patientIds.push(p.id);
  }
  await db.transaction(async (tx) => {
    await tx.insert(patientTags).values(patientTagRows(patientIds, refs.tagIds).map((r) => ({ ...base, ...r })));
    const logIds = await insertedIds(
      tx
        .insert(patientLogs)
        .values(patientLogRows(patientIds).map((r) => ({ ...base, ...r })))
        .returning({ id: patientLogs.id }),
    );
    // Every third entry carries a tag, so patient_log_tags has rows to read.
    const logTags = logIds
      .filter((_, i) => i % 3 === 0)
      .map((id, i) => ({ ...base, patient_log_id: id, tag_id: refs.tagIds[i % refs.tagIds.length] }));
    await tx.insert(patientLogTags).values(logTags);
    await tx.insert(formTemplates).values(FORM_TEMPLATES.map((f) => ({ ...base, ...f })));
    await tx
      .insert(clinicalNotes)
      .values(clinicalNoteRows(patientIds, refs.practitionerIds).map((r) => ({ ...base, ...r })));
    await insertCarePlans(tx, base, account.id, patientIds, refs.tagIds[CARE_PLAN_TAG]);
  });
  if (store) await uploadSampleFiles(w, store, patientIds);
  await seedAppointments(w, patientIds);
  await seedBilling(w, patientIds);
  // The demo practice lets the clinic job mark unarrived appointments missed (off for a new clinic).
  await updatePracticeSettings(db, account, w.actor, { mark_missed: true });
  return { created: true };
}

/** A few timeline entries of every type on the first patients, as staff and the system would write them. */
function patientLogRows(patientIds: number[]) {
  const entries = [
    { type: 'note', sub_type: 'general', data: 'Patient reports improved range of motion since last visit.' },
    { type: 'comms', sub_type: 'sms', data: 'Appointment reminder sent.' },
    { type: 'financial', sub_type: 'invoice', data: 'Invoice issued for initial assessment.' },
    { type: 'appt', sub_type: 'booked', data: 'Follow-up booked for next week.' },
    { type: 'membership', sub_type: 'care_plan', data: 'Enrolled in 6-week rehab programme.' },
    { type: 'system', sub_type: 'merge', data: 'Duplicate record merged.' },
    { type: 'historical', sub_type: 'import', data: 'Imported from previous practice system.' },
  ] as const;
  return patientIds.slice(0, 10).flatMap((patientId, p) =>
    entries
      .filter((_, e) => (e + p) % 3 !== 0)
      .map((e) => ({
        patient_id: patientId,
        ...e,
        source: e.type === 'system' ? ('system' as const) : ('staff' as const),
        source_entity: e.type === 'historical' ? 'legacy-import' : null,
        created_by: 'seed',
      })),
  );
}

type Base = { account_id: number; metadata: Metadata; created_at: string; updated_at: string };

interface Refs {
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
async function insertedIds(rows: PromiseLike<{ id: number }[]>): Promise<number[]> {
  return (await rows).map((r) => r.id).sort((a, b) => a - b);
}

async function insertPractice(tx: Db, base: Base, profile: Profile, today: string): Promise<Refs> {
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
// Region profiles

interface Profile {
  country: string;
  locations: {
    name: string;
    line_1: string;
    city: string;
    postal_code: string;
    country: string;
    phone: string;
    email: string;
    online_booking: boolean;
  }[];
  /** Patient home addresses, cycled by patient index; `n` is a house number derived from the index. */
  streets: { line_1: (n: number) => string; city: string; postal_code: string; state?: string }[];
  mobile: (n: number) => string;
  home: (n: number) => string;
  productTaxBp: number;
  priceScale: number;
  insurers: string[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

const location = (
  country: string,
  name: string,
  line_1: string,
  city: string,
  postal_code: string,
  phone: string,
  email: string,
  online_booking = true,
) => ({
  name,
  line_1,
  city,
  postal_code,
  country,
  phone,
  email,
  online_booking,
});

// Numbers come from ranges reserved for drama/fiction where the country has one (GB 07700 900xxx and
// 020 7946 0xxx, US 555-01xx, AU 0491 57x xxx and 02 5550 xxxx, DE 030 23125 xxx).
const PROFILES: Record<string, Profile> = {
  neptune: {
    country: 'GB',
    locations: [
      location(
        'GB',
        'Clerkenwell Clinic',
        '14 Exmouth Market',
        'London',
        'EC1R 4QE',
        '020 7946 0100',
        'clerkenwell@example.com',
      ),
      location('GB', 'Richmond Clinic', '3 Hill Rise', 'Richmond', 'TW10 6UQ', '020 7946 0200', 'richmond@example.com'),
      location(
        'GB',
        'Hartfield RFC Pitchside',
        'Hartfield Rugby Club, Coldharbour Lane',
        'London',
        'SE5 9NS',
        '020 7946 0300',
        'pitchside@example.com',
        false,
      ),
    ],
    streets: [
      { line_1: (n) => `${n} Amwell Street`, city: 'London', postal_code: 'EC1R 1UL' },
      { line_1: (n) => `Flat ${(n % 9) + 1}, ${n} Upper Street`, city: 'London', postal_code: 'N1 0PN' },
      { line_1: (n) => `${n} Sheen Road`, city: 'Richmond', postal_code: 'TW9 1YJ' },
      { line_1: (n) => `${n} Kew Road`, city: 'Richmond', postal_code: 'TW9 2NQ' },
      { line_1: (n) => `${n} Camberwell Grove`, city: 'London', postal_code: 'SE5 8RE' },
      { line_1: (n) => `${n} Twickenham Road`, city: 'Isleworth', postal_code: 'TW7 6AW' },
    ],
    mobile: (n) => `07700 900${pad(n, 3)}`,
    home: (n) => `020 7946 0${pad(n, 3)}`,
    productTaxBp: 2000,
    priceScale: 1,
    insurers: ['Bupa', 'AXA Health', 'Vitality', 'Aviva'],
  },
  mercury: {
    country: 'DE',
    locations: [
      location(
        'DE',
        'Praxis Kreuzberg',
        'Paul-Lincke-Ufer 21',
        'Berlin',
        '10999',
        '030 23125100',
        'kreuzberg@example.com',
      ),
      location(
        'DE',
        'Praxis Prenzlauer Berg',
        'Schönhauser Allee 80',
        'Berlin',
        '10439',
        '030 23125200',
        'prenzlberg@example.com',
      ),
      location(
        'DE',
        'Sportplatz Neukölln',
        'Oderstraße 182',
        'Berlin',
        '12051',
        '030 23125300',
        'sportplatz@example.com',
        false,
      ),
    ],
    streets: [
      { line_1: (n) => `Oranienstraße ${n}`, city: 'Berlin', postal_code: '10999' },
      { line_1: (n) => `Kastanienallee ${n}`, city: 'Berlin', postal_code: '10435' },
      { line_1: (n) => `Sonnenallee ${n}`, city: 'Berlin', postal_code: '12045' },
      { line_1: (n) => `Bergmannstraße ${n}`, city: 'Berlin', postal_code: '10961' },
      { line_1: (n) => `Karl-Marx-Allee ${n}`, city: 'Berlin', postal_code: '10243' },
      { line_1: (n) => `Hauptstraße ${n}`, city: 'Potsdam', postal_code: '14469' },
    ],
    mobile: (n) => `0171 39200${pad(n % 100, 2)}`,
    home: (n) => `030 23125${pad(n, 3)}`,
    productTaxBp: 1900,
    priceScale: 1,
    insurers: ['TK', 'AOK', 'Barmer', 'DKV'],
  },
  vulcan: {
    country: 'US',
    locations: [
      location(
        'US',
        'SoMa Clinic',
        '455 Market St, Suite 200',
        'San Francisco',
        '94105',
        '(415) 555-0100',
        'soma@example.com',
      ),
      location('US', 'Oakland Clinic', '1721 Broadway', 'Oakland', '94612', '(510) 555-0100', 'oakland@example.com'),
      location(
        'US',
        'Kezar Stadium Sideline',
        '670 Kezar Dr',
        'San Francisco',
        '94118',
        '(415) 555-0199',
        'sideline@example.com',
        false,
      ),
    ],
    streets: [
      { line_1: (n) => `${n} Valencia St`, city: 'San Francisco', state: 'CA', postal_code: '94110' },
      {
        line_1: (n) => `${n} Divisadero St, Apt ${(n % 9) + 1}`,
        city: 'San Francisco',
        state: 'CA',
        postal_code: '94117',
      },
      { line_1: (n) => `${n} Grand Ave`, city: 'Oakland', state: 'CA', postal_code: '94610' },
      { line_1: (n) => `${n} Shattuck Ave`, city: 'Berkeley', state: 'CA', postal_code: '94704' },
      { line_1: (n) => `${n} Irving St`, city: 'San Francisco', state: 'CA', postal_code: '94122' },
      { line_1: (n) => `${n} Park Blvd`, city: 'Oakland', state: 'CA', postal_code: '94606' },
    ],
    mobile: (n) => `(415) 555-01${pad(n % 100, 2)}`,
    home: (n) => `(510) 555-01${pad(n % 100, 2)}`,
    productTaxBp: 863,
    priceScale: 1.8,
    insurers: ['Aetna', 'Blue Shield of California', 'Kaiser Permanente', 'UnitedHealthcare'],
  },
  jupiter: {
    country: 'SG',
    locations: [
      location(
        'SG',
        'Novena Clinic',
        '101 Thomson Road, #05-02',
        'Singapore',
        '307591',
        '6123 4100',
        'novena@example.com',
      ),
      location(
        'SG',
        'Tampines Clinic',
        '4 Tampines Central 5, #03-11',
        'Singapore',
        '529510',
        '6123 4200',
        'tampines@example.com',
      ),
      location(
        'SG',
        'Kallang Sports Hub',
        '1 Stadium Drive',
        'Singapore',
        '397629',
        '6123 4300',
        'sportshub@example.com',
        false,
      ),
    ],
    streets: [
      {
        line_1: (n) => `Blk ${100 + n} Ang Mo Kio Ave 3, #0${(n % 9) + 1}-12`,
        city: 'Singapore',
        postal_code: '560100',
      },
      { line_1: (n) => `Blk ${200 + n} Tampines St 21, #1${n % 10}-34`, city: 'Singapore', postal_code: '521201' },
      { line_1: (n) => `${n} Jalan Bukit Merah`, city: 'Singapore', postal_code: '150001' },
      { line_1: (n) => `${n} Holland Grove Road`, city: 'Singapore', postal_code: '278801' },
      { line_1: (n) => `Blk ${300 + n} Bedok North Rd, #0${(n % 9) + 1}-05`, city: 'Singapore', postal_code: '460301' },
      { line_1: (n) => `${n} Lorong Chuan`, city: 'Singapore', postal_code: '556741' },
    ],
    mobile: (n) => `8123 4${pad(n, 3)}`,
    home: (n) => `6234 5${pad(n, 3)}`,
    productTaxBp: 900,
    priceScale: 1.6,
    insurers: ['AIA', 'Great Eastern', 'Prudential', 'NTUC Income'],
  },
  apollo: {
    country: 'AU',
    locations: [
      location(
        'AU',
        'Surry Hills Clinic',
        '88 Crown Street',
        'Surry Hills',
        '2010',
        '02 5550 1000',
        'surryhills@example.com',
      ),
      location(
        'AU',
        'Bondi Junction Clinic',
        '500 Oxford Street',
        'Bondi Junction',
        '2022',
        '02 5550 2000',
        'bondi@example.com',
      ),
      location(
        'AU',
        'Moore Park Sideline',
        'Driver Avenue',
        'Moore Park',
        '2021',
        '02 5550 3000',
        'sideline@example.com',
        false,
      ),
    ],
    streets: [
      { line_1: (n) => `${n} Bourke Street`, city: 'Surry Hills', state: 'NSW', postal_code: '2010' },
      {
        line_1: (n) => `Unit ${(n % 9) + 1}, ${n} Glenayr Avenue`,
        city: 'Bondi Beach',
        state: 'NSW',
        postal_code: '2026',
      },
      { line_1: (n) => `${n} King Street`, city: 'Newtown', state: 'NSW', postal_code: '2042' },
      { line_1: (n) => `${n} Darling Street`, city: 'Balmain', state: 'NSW', postal_code: '2041' },
      { line_1: (n) => `${n} Belmore Road`, city: 'Randwick', state: 'NSW', postal_code: '2031' },
      { line_1: (n) => `${n} Oxford Street`, city: 'Paddington', state: 'NSW', postal_code: '2021' },
    ],
    mobile: (n) => `0491 57${n % 10} ${pad(n, 3)}`,
    home: (n) => `02 5550 ${pad(n, 4)}`,
    productTaxBp: 1000,
    priceScale: 1.5,
    insurers: ['Medibank', 'Bupa', 'HCF', 'nib'],
  },
};

// ---------------------------------------------------------------------------------------------------
// Practice setup (indexes below refer to positions in these tables)

const MODALITIES: [string, string][] = [
  ['Manual therapy', '#4F81BD'],
  ['Exercise rehabilitation', '#9BBB59'],
  ['Dry needling', '#C0504D'],
  ['Hydrotherapy', '#4BACC6'],
  ['Sports massage', '#F79646'],
];

/** A row as listed in the tables below: tenant columns come from `base`, and `Defaults` may be left out. */
type SeedRow<T, Defaults extends keyof T = never, Derived extends keyof T = never> = Omit<
  T,
  keyof Base | 'id' | Defaults | Derived
> &
  Partial<Pick<T, Defaults>>;

const APPOINTMENT_TYPES: SeedRow<
  typeof appointmentTypes.$inferInsert,
  'online_booking' | 'active' | 'max_attendees' | 'requires_resource'
>[] = [
  {
    name: 'Initial Assessment',
    category: 'Physiotherapy',
    duration_minutes: 60,
    color: '#2E75B6',
    description: 'History, examination and a treatment plan.',
  },
  { name: 'Follow-up', category: 'Physiotherapy', duration_minutes: 30, color: '#70AD47' },
  { name: 'Extended Follow-up', category: 'Physiotherapy', duration_minutes: 45, color: '#548235' },
  {
    name: 'Sports Massage',
    category: 'Massage',
    duration_minutes: 45,
    color: '#ED7D31',
    requires_resource: true,
    description: 'Needs a massage table.',
  },
  {
    name: 'Clinical Pilates Class',
    category: 'Classes',
    duration_minutes: 60,
    color: '#7030A0',
    max_attendees: 8,
    description: 'Small-group mat and reformer class.',
  },
  {
    name: 'Workplace Assessment',
    category: 'Occupational health',
    duration_minutes: 60,
    color: '#7F7F7F',
    online_booking: false,
    description: 'Booked by employers through reception.',
  },
  {
    name: 'Video Consultation (retired)',
    category: 'Physiotherapy',
    duration_minutes: 30,
    color: '#BFBFBF',
    online_booking: false,
    active: false,
  },
];

/** `locations` and `types` are indexes into the profile's locations and APPOINTMENT_TYPES. */
const PRACTITIONERS = [
  {
    title: 'Ms',
    first_name: 'Amelia',
    last_name: 'Hart',
    designation: 'Senior Physiotherapist, MSc',
    active: true,
    online_booking: true,
    locations: [0, 1],
    types: [0, 1, 2, 5],
  },
  {
    title: 'Mr',
    first_name: 'Daniel',
    last_name: 'Okafor',
    designation: 'Sports Physiotherapist, BSc (Hons)',
    active: true,
    online_booking: true,
    locations: [0, 2],
    types: [0, 1, 2, 3],
  },
  {
    title: 'Ms',
    first_name: 'Priya',
    last_name: 'Natarajan',
    designation: 'Physiotherapist, Clinical Pilates Instructor',
    active: true,
    online_booking: true,
    locations: [1],
    types: [0, 1, 2, 4],
  },
  // Takes bookings by phone only: his diary is managed by reception.
  {
    title: 'Mr',
    first_name: 'Tom',
    last_name: 'Brennan',
    designation: 'Sports Massage Therapist',
    active: true,
    online_booking: false,
    locations: [0],
    types: [3],
  },
  {
    title: 'Dr',
    first_name: 'Laura',
    last_name: 'Mendes',
    designation: 'Osteopath',
    active: false,
    online_booking: false,
    locations: [1],
    types: [0, 1, 6],
  },
];

/** `location` is an index into the profile's locations. */
const RESOURCES: (SeedRow<typeof resources.$inferInsert, 'status' | 'locked', 'location_id' | 'sort_order'> & {
  location: number;
})[] = [
  { location: 0, name: 'Treatment Room 1', public_name: 'Room 1', color: '#DEEBF7' },
  { location: 0, name: 'Treatment Room 2', public_name: 'Room 2', color: '#E2F0D9' },
  {
    location: 0,
    name: 'Treatment Room 3',
    public_name: 'Room 3',
    color: '#FBE5D6',
    status: 'inactive',
    description: 'Closed for refurbishment.',
  },
  { location: 0, name: 'Massage Table A', color: '#FFF2CC' },
  // Locked: the gym is shared with the building and must not be renamed or removed from the diary.
  {
    location: 0,
    name: 'Rehab Gym',
    public_name: 'Gym',
    color: '#EDEDED',
    locked: true,
    description: 'Shared with the building; bookable for rehab sessions.',
  },
  { location: 1, name: 'Room A', color: '#DEEBF7' },
  { location: 1, name: 'Room B', color: '#E2F0D9' },
  {
    location: 1,
    name: 'Pilates Studio',
    public_name: 'Studio',
    color: '#E4DFEC',
    description: 'Four reformers and mats for up to eight.',
  },
  { location: 1, name: 'Massage Table B', color: '#FFF2CC' },
  { location: 2, name: 'Pitchside Bench', color: '#E2F0D9' },
];

const TAGS: [string, string][] = [
  ['New patient', '#2E75B6'],
  ['Post-op', '#C00000'],
  ['Sports injury', '#ED7D31'],
  ['Chronic pain', '#7030A0'],
  ['Insurance', '#00B050'],
  ['Interpreter needed', '#FFC000'],
  ['ACL rehab pathway', '#1F4E79'],
];
/** The tag a care plan places: patients carry it with editable false. */
const CARE_PLAN_TAG = 6;

const PAYMENT_METHODS: SeedRow<typeof paymentMethods.$inferInsert, 'active', 'sort_order'>[] = [
  { name: 'Card', type: 'card' },
  { name: 'Cash', type: 'cash' },
  { name: 'Bank transfer', type: 'bank_transfer' },
  { name: 'Health insurance', type: 'insurance' },
  { name: 'Cheque', type: 'cheque', active: false },
  { name: 'Gift voucher', type: 'other' },
];

/** `price` in UK pence; scaled per region. */
const BILLABLE_ITEMS: (SeedRow<typeof billableItems.$inferInsert, 'active', 'price_minor' | 'tax_rate_bp'> & {
  price: number;
})[] = [
  { name: 'Initial Assessment (60 min)', item_code: 'PHY-IA60', item_type: 'service', price: 7500 },
  { name: 'Follow-up (30 min)', item_code: 'PHY-FU30', item_type: 'service', price: 5500 },
  { name: 'Extended Follow-up (45 min)', item_code: 'PHY-FU45', item_type: 'service', price: 6500 },
  { name: 'Sports Massage (45 min)', item_code: 'MAS-45', item_type: 'service', price: 5000 },
  { name: 'Clinical Pilates Class', item_code: 'PIL-CLS', item_type: 'service', price: 2000 },
  { name: 'Clinical Pilates 6-class pass', item_code: 'PIL-PASS6', item_type: 'service', price: 10800 },
  { name: 'Workplace Assessment', item_code: 'OCC-WA', item_type: 'service', price: 15000 },
  { name: 'Medical report', item_code: 'ADM-REP', item_type: 'other', price: 4000 },
  { name: 'Video Consultation', item_code: 'PHY-VC30', item_type: 'service', price: 4500, active: false },
  { name: 'Resistance band (medium)', item_code: 'PRD-BAND-M', item_type: 'product', price: 800 },
  { name: 'Foam roller', item_code: 'PRD-ROLL', item_type: 'product', price: 2200 },
  { name: 'Kinesiology tape', item_code: 'PRD-TAPE', item_type: 'product', price: 1200 },
  { name: 'Hot/cold gel pack', item_code: 'PRD-GEL', item_type: 'product', price: 900 },
  { name: 'Lumbar roll', item_code: 'PRD-LUMB', item_type: 'product', price: 1800, active: false },
];

const REFERRAL_SOURCES: SeedRow<typeof referralSources.$inferInsert, 'active'>[] = [
  { name: 'GP referral', category: 'Medical' },
  { name: 'Orthopaedic consultant', category: 'Medical' },
  { name: 'Google search', category: 'Online' },
  { name: 'Friend or family', category: 'Word of mouth' },
  { name: 'Rugby club partnership', category: 'Partner' },
  { name: 'Leaflet drop 2019', category: 'Marketing', active: false },
];

// ---------------------------------------------------------------------------------------------------
// Calendar

type NewAvailability = SeedRow<typeof practitionerAvailabilities.$inferInsert>;

/** A weekly shift: practitioner and location are indexes, day 1 = Monday. */
type Shift = { p: number; day: number; loc: number; starts: string; ends: string };
const shifts = (p: number, days: number[], loc: number, starts: string, ends: string): Shift[] =>
  days.map((day) => ({ p, day, loc, starts, ends }));

// Only active practitioners have hours; each works at the sites listed on them in PRACTITIONERS.
const SHIFTS: Shift[] = [
  ...shifts(0, [1, 2, 3], 0, '08:00', '16:30'),
  ...shifts(0, [4], 1, '09:00', '17:30'),
  ...shifts(0, [5], 1, '09:00', '15:00'),
  ...shifts(1, [1, 3], 0, '10:00', '19:00'),
  ...shifts(1, [2, 4], 2, '16:00', '20:00'),
  ...shifts(1, [5], 0, '08:00', '14:00'),
  ...shifts(2, [1, 3, 5], 1, '07:30', '15:30'),
  ...shifts(2, [2, 4], 1, '12:00', '20:00'),
  ...shifts(3, [1, 2, 3, 4, 5], 0, '12:00', '20:00'),
];

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
function todayIn(timeZone: string): string {
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

// ---------------------------------------------------------------------------------------------------
// Patients

type Sex = 'male' | 'female' | 'other' | null;

/** [first name, last name, sex, preferred name] */
const PATIENTS: [string, string, Sex, string?][] = [
  ['Oliver', 'Bennett', 'male'],
  ['Elizabeth', 'Chen', 'female', 'Liz'],
  ['Mohammed', 'Rahman', 'male'],
  ['Sophie', 'Williams', 'female'],
  ['James', "O'Connor", 'male', 'Jim'],
  ['Aisha', 'Begum', 'female'],
  ['Lucas', 'Fischer', 'male'],
  ['Charlotte', 'Davies', 'female', 'Lottie'],
  ['Kwame', 'Mensah', 'male'],
  ['Isabella', 'Rossi', 'female'],
  ['Alex', 'Morgan', 'other'],
  ['Hannah', 'Kowalski', 'female'],
  ['William', 'Thompson', 'male', 'Bill'],
  ['Mei', 'Tanaka', 'female'],
  ['George', 'Papadopoulos', 'male'],
  ['Niamh', 'Gallagher', 'female'],
  ['Rajesh', 'Patel', 'male', 'Raj'],
  ['Emily', 'Clarke', 'female'],
  ['Samuel', 'Adeyemi', 'male', 'Sam'],
  ['Zara', 'Hussain', 'female'],
  ['Jordan', 'Lee', null],
  ['Margaret', 'Evans', 'female', 'Maggie'],
  ['Luca', 'Bianchi', 'male'],
  ['Freya', 'Andersson', 'female'],
  ['Daniel', 'Nguyen', 'male'],
  ['Chloe', 'Martin', 'female'],
  ['Ibrahim', 'Yilmaz', 'male'],
  ['Grace', 'Murphy', 'female'],
  ['Robin', 'Schmidt', 'other'],
  ['Katherine', 'Wright', 'female', 'Kate'],
  ['Ethan', 'Walker', 'male'],
  ['Ana', 'Silva', null],
  ['Thomas', 'Hughes', 'male', 'Tom'],
  ['Yasmin', 'Ali', 'female'],
];

const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];

function patientInput(
  i: number,
  profile: Profile,
  refs: Refs,
  earlierPatientIds: number[],
): CreateInput<typeof patientResource> {
  const [first_name, last_name, sex, preferred_name] = PATIENTS[i];
  const n = i + 1;
  // Spread birthdays over 1944–2013 so the list has children, working-age adults and retirees.
  const dob = `${1944 + ((i * 17) % 70)}-${pad(((i * 5) % 12) + 1, 2)}-${pad(((i * 11) % 28) + 1, 2)}`;
  const street = profile.streets[i % profile.streets.length];
  const numbers: NonNullable<CreateInput<typeof patientResource>['numbers']> = [];
  if (i % 11 !== 10) numbers.push({ number: profile.mobile(100 + n), type: 'mobile' });
  if (i % 4 === 0 || i % 11 === 10) numbers.push({ number: profile.home(100 + n), type: 'home' });

  const input: CreateInput<typeof patientResource> = {
    first_name,
    last_name,
    preferred_name: preferred_name ?? null,
    dob,
    // Some patients never give an email address.
    email:
      i % 7 === 6
        ? null
        : `${first_name}.${last_name}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${EMAIL_DOMAINS[i % 3]}`,
    sex,
    custom_reference: `PT-${pad(n, 4)}`,
    numbers,
    address:
      i % 10 === 9
        ? undefined
        : {
            line_1: street.line_1(2 + ((i * 7) % 90)),
            city: street.city,
            state: street.state ?? null,
            postal_code: street.postal_code,
            country: profile.country,
          },
  };
  // Most patients belong to a main site; pitchside patients and walk-ins have none.
  if (i % 4 !== 3) input.default_location_id = refs.locationIds[i % 2];
  if (i % 5 === 2) {
    input.referral_source_type = 'referral_source';
    input.referral_source_id = refs.activeReferralSourceIds[i % refs.activeReferralSourceIds.length];
  } else if (i % 9 === 8 && earlierPatientIds.length) {
    // Recommended by an existing patient.
    input.referral_source_type = 'patient';
    input.referral_source_id = earlierPatientIds[i % earlierPatientIds.length];
  }
  if (i % 6 === 1)
    input.metadata = {
      insurer: profile.insurers[i % profile.insurers.length],
      legacy_id: 1200 + n,
      policy_verified: i % 12 === 1,
    };
  if (i % 8 === 3)
    input.communication_preferences = { appointment_reminders: true, marketing: false, preferred_channel: 'sms' };
  if (i === 13) input.note = 'Prefers morning appointments; hard of hearing on the left side.';
  if (i === 22) {
    input.blocked = true;
    input.note = 'Three missed appointments; book by phone only.';
  }
  return input;
}

/**
 * About half the patients carry one or two tags. The care-plan tag is placed on two patients with
 * editable false, as a care plan would, so integrators meet tags they cannot remove.
 */
function patientTagRows(
  patientIds: number[],
  tagIds: number[],
): { patient_id: number; tag_id: number; editable: boolean }[] {
  const rows: { patient_id: number; tag_id: number; editable: boolean }[] = [];
  patientIds.forEach((patient_id, i) => {
    if (i % 2 !== 0) return;
    const k = i / 2;
    rows.push({ patient_id, tag_id: tagIds[k % CARE_PLAN_TAG], editable: true });
    if (k % 3 === 0) rows.push({ patient_id, tag_id: tagIds[(k + 3) % CARE_PLAN_TAG], editable: true });
  });
  for (const i of [4, 18]) rows.push({ patient_id: patientIds[i], tag_id: tagIds[CARE_PLAN_TAG], editable: false });
  return rows;
}

const FORM_TEMPLATES = [
  {
    name: 'New patient intake',
    description: 'Medical history and presenting complaint, completed before the first visit.',
    category: 'intake' as const,
    active: true,
    questions: [
      { key: 'complaint', label: 'What brings you in today?', type: 'textarea' as const, required: true },
      { key: 'onset', label: 'When did it start?', type: 'date' as const, required: false },
      { key: 'pain', label: 'Pain today (0-10)', type: 'scale' as const, required: true },
      { key: 'surgery', label: 'Any surgery in the last 12 months?', type: 'yes_no' as const, required: true },
    ],
  },
  {
    name: 'Treatment consent',
    description: null,
    category: 'consent' as const,
    active: true,
    questions: [
      { key: 'consent', label: 'I consent to assessment and treatment', type: 'yes_no' as const, required: true },
    ],
  },
  {
    name: 'Oswestry Disability Index',
    description: 'Low back pain outcome measure.',
    category: 'outcome_measure' as const,
    active: true,
    questions: [
      {
        key: 'pain_intensity',
        label: 'Pain intensity',
        type: 'choice' as const,
        required: true,
        options: ['None', 'Mild', 'Moderate', 'Severe'],
      },
      {
        key: 'walking',
        label: 'Walking',
        type: 'choice' as const,
        required: true,
        options: ['No limit', '1 mile', '1/2 mile', '100 yards'],
      },
    ],
  },
  {
    name: 'Old intake (retired)',
    description: 'Replaced by New patient intake.',
    category: 'intake' as const,
    active: false,
    questions: [],
  },
];

/** A first-visit note for the first patients, written by the practitioners in turn. */
function clinicalNoteRows(patientIds: number[], practitionerIds: number[]) {
  return patientIds.slice(0, 8).map((patientId, i) => ({
    patient_id: patientId,
    practitioner_id: practitionerIds[i % practitionerIds.length],
    title: i % 2 ? 'Follow-up' : 'Initial assessment',
    body:
      i % 2
        ? 'Progressing well; continue home exercise programme.'
        : 'Subjective: gradual onset pain. Objective: reduced ROM. Plan: manual therapy, exercises.',
    created_by: 'seed',
  }));
}

/**
 * Two care plans: a scheduled rehab programme billed per period, and an unscheduled massage pack
 * paid upfront (plan-level tracking). Their members are the patients that carry the care-plan tag
 * (placed with editable: false in patientTagRows), plus one more member each.
 */
async function insertCarePlans(tx: Db, base: Base, accountId: number, patientIds: number[], tagId: number) {
  // One after another: a transaction is one connection, and pg refuses overlapping queries on it.
  const mods = await tx
    .select({ id: modalities.id })
    .from(modalities)
    .where(eq(modalities.account_id, accountId))
    .orderBy(modalities.id);
  const types = await tx
    .select({ id: appointmentTypes.id })
    .from(appointmentTypes)
    .where(eq(appointmentTypes.account_id, accountId))
    .orderBy(appointmentTypes.id);
  const items = await tx
    .select({ id: billableItems.id, type: billableItems.item_type })
    .from(billableItems)
    .where(eq(billableItems.account_id, accountId))
    .orderBy(billableItems.id);
  const service = items.find((i) => i.type === 'service')!.id;
  const product = items.find((i) => i.type === 'product')!.id;
  const [rehab, pack] = await insertedIds(
    tx
      .insert(carePlans)
      .values([
        {
          ...base,
          name: 'Knee rehab programme',
          description: 'Twelve visits over eight weeks after knee surgery.',
          status: 'active' as const,
          tag_id: tagId,
          billing: {
            type: 'per_period' as const,
            amount_minor: 12000,
            period: 'month' as const,
            periods: [
              { starts_on: '2026-11-01', ends_on: '2026-11-30', amount_minor: 12000 },
              { starts_on: '2026-12-01', ends_on: '2026-12-31', amount_minor: 12000 },
            ],
            services: [{ billable_item_id: service, quantity: 12 }],
            products: [{ billable_item_id: product, quantity: 1 }],
          },
          schedules: [
            {
              id: 1,
              name: 'Standard',
              visits_planned: 12,
              appointment_type_ids: types.slice(0, 2).map((t) => t.id),
              auto_sync: true,
              sync_status: 'synced' as const,
              phases: [
                { name: 'Acute', weeks: 2, visits_per_week: 2, modality_ids: mods.slice(0, 2).map((m) => m.id) },
                {
                  name: 'Strengthening',
                  weeks: 6,
                  visits_per_week: 1,
                  modality_ids: mods.slice(1, 3).map((m) => m.id),
                },
              ],
            },
            {
              id: 2,
              name: 'Accelerated',
              visits_planned: 8,
              appointment_type_ids: [types[0].id],
              auto_sync: false,
              sync_status: 'pending' as const,
              phases: [],
            },
          ],
          visits_planned: null,
        },
        {
          ...base,
          name: 'Massage 5-pack',
          description: 'Five sports massage sessions, paid upfront.',
          status: 'active' as const,
          tag_id: tagId,
          billing: {
            type: 'upfront' as const,
            amount_minor: 25000,
            period: null,
            periods: [],
            services: [{ billable_item_id: service, quantity: 5 }],
            products: [],
          },
          schedules: [],
          visits_planned: 5,
        },
      ])
      .returning({ id: carePlans.id }),
  );
  const member = (
    care_plan_id: number,
    patient_id: number,
    visits_used: number,
    schedule_override: { schedule_id?: number; visits_planned?: number } | null = null,
  ) => ({
    ...base,
    care_plan_id,
    patient_id,
    visits_used,
    schedule_override,
  });
  await tx
    .insert(carePlanMembers)
    .values([
      member(rehab, patientIds[4], 5),
      member(rehab, patientIds[18], 2, { schedule_id: 2 }),
      member(pack, patientIds[12], 3),
      member(pack, patientIds[14], 0, { visits_planned: 10 }),
    ]);
  // Every member carries the plan's tag, locked (editable: false) because the plan placed it.
  await tx
    .insert(patientTags)
    .values(
      [patientIds[12], patientIds[14]].map((patient_id) => ({ ...base, patient_id, tag_id: tagId, editable: false })),
    )
    .onConflictDoNothing();
}

// A 1x1 PNG, so the sample files include an image whose type is sniffed from its bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A referral letter and an X-ray on the first patient, through the same upload path as the API. */
async function uploadSampleFiles(w: WriteContext, store: FileStore, patientIds: number[]) {
  await uploadFile(w, store, {
    patient_id: patientIds[0],
    file_type: 'generic',
    description: 'GP referral letter',
    file: {
      name: 'referral-letter.txt',
      bytes: Buffer.from('Dear colleague,\nPlease assess this patient for knee pain.\n'),
    },
  });
  await uploadFile(w, store, {
    patient_id: patientIds[0],
    file_type: 'diagnostic_image',
    description: 'Knee X-ray',
    patient_viewable: true,
    file: { name: 'knee-xray.png', bytes: PNG },
  });
}
