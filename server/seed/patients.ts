/** Loads the sample patients (server/seed/tables/patients.ts) with their tags, timeline, clinical notes, care plans and files. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appointmentTypes, billableItems, modalities, carePlanMembers, carePlans, patientTags } from '../../db/schema';
import type { FileStore } from '../files/store';
import { uploadFile } from '../domain/files';
import type { WriteContext } from '../domain/write-context';
import type { CreateInput } from '../resources/define';
import type { patients as patientResource } from '../resources/patients';
import { pad, CARE_PLAN_TAG, type Base, type Profile } from './tables/practice';
import { PATIENTS, EMAIL_DOMAINS, PNG } from './tables/patients';
import { insertedIds, type Refs } from './practice';

/** A few timeline entries of every type on the first patients, as staff and the system would write them. */
export function patientLogRows(patientIds: number[]) {
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

export function patientInput(
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
export function patientTagRows(
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

/** A first-visit note for the first patients, written by the practitioners in turn. */
export function clinicalNoteRows(patientIds: number[], practitionerIds: number[]) {
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
export async function insertCarePlans(tx: Db, base: Base, accountId: number, patientIds: number[], tagId: number) {
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

/** A referral letter and an X-ray on the first patient, through the same upload path as the API. */
export async function uploadSampleFiles(w: WriteContext, store: FileStore, patientIds: number[]) {
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
