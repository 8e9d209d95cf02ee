/** The sample practice's fixed tables: the region profiles (addresses, numbers, tax, prices), the catalogue, the staff, rooms, tags and the weekly shifts. Plain data: server/seed/practice.ts loads it. */
import type { Metadata } from '../../../db/dialect';
import type { appointmentTypes, billableItems, paymentMethods, referralSources, resources } from '../../../db/schema';

/** The columns every seeded row shares (SeedRow leaves them out). */
export type Base = { account_id: number; metadata: Metadata; created_at: string; updated_at: string };

// ---------------------------------------------------------------------------------------------------
// Region profiles

export interface Profile {
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

export const pad = (n: number, width: number) => String(n).padStart(width, '0');

export const location = (
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
export const PROFILES: Record<string, Profile> = {
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

export const MODALITIES: [string, string][] = [
  ['Manual therapy', '#4F81BD'],
  ['Exercise rehabilitation', '#9BBB59'],
  ['Dry needling', '#C0504D'],
  ['Hydrotherapy', '#4BACC6'],
  ['Sports massage', '#F79646'],
];

/** A row as listed in the tables below: tenant columns come from `base`, and `Defaults` may be left out. */
export type SeedRow<T, Defaults extends keyof T = never, Derived extends keyof T = never> = Omit<
  T,
  keyof Base | 'id' | Defaults | Derived
> &
  Partial<Pick<T, Defaults>>;

export const APPOINTMENT_TYPES: SeedRow<
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
export const PRACTITIONERS = [
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
export const RESOURCES: (SeedRow<typeof resources.$inferInsert, 'status' | 'locked', 'location_id' | 'sort_order'> & {
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

export const TAGS: [string, string][] = [
  ['New patient', '#2E75B6'],
  ['Post-op', '#C00000'],
  ['Sports injury', '#ED7D31'],
  ['Chronic pain', '#7030A0'],
  ['Insurance', '#00B050'],
  ['Interpreter needed', '#FFC000'],
  ['ACL rehab pathway', '#1F4E79'],
];
/** The tag a care plan places: patients carry it with editable false. */
export const CARE_PLAN_TAG = 6;

export const PAYMENT_METHODS: SeedRow<typeof paymentMethods.$inferInsert, 'active', 'sort_order'>[] = [
  { name: 'Card', type: 'card' },
  { name: 'Cash', type: 'cash' },
  { name: 'Bank transfer', type: 'bank_transfer' },
  { name: 'Health insurance', type: 'insurance' },
  { name: 'Cheque', type: 'cheque', active: false },
  { name: 'Gift voucher', type: 'other' },
];

/** `price` in UK pence; scaled per region. */
export const BILLABLE_ITEMS: (SeedRow<typeof billableItems.$inferInsert, 'active', 'price_minor' | 'tax_rate_bp'> & {
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

export const REFERRAL_SOURCES: SeedRow<typeof referralSources.$inferInsert, 'active'>[] = [
  { name: 'GP referral', category: 'Medical' },
  { name: 'Orthopaedic consultant', category: 'Medical' },
  { name: 'Google search', category: 'Online' },
  { name: 'Friend or family', category: 'Word of mouth' },
  { name: 'Rugby club partnership', category: 'Partner' },
  { name: 'Leaflet drop 2019', category: 'Marketing', active: false },
];

/** A weekly shift: practitioner and location are indexes, day 1 = Monday. */
type Shift = { p: number; day: number; loc: number; starts: string; ends: string };
const shifts = (p: number, days: number[], loc: number, starts: string, ends: string): Shift[] =>
  days.map((day) => ({ p, day, loc, starts, ends }));

// Only active practitioners have hours; each works at the sites listed on them in PRACTITIONERS.
export const SHIFTS: Shift[] = [
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
