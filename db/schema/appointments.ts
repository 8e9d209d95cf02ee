import {
  bool,
  int,
  partialIndex,
  primaryKey,
  table,
  tenantColumns,
  text,
  timestamp,
  sortIndexes,
  ref,
  tenantForeignKey,
} from '../dialect';
import { patients } from './patients';

export const APPOINTMENT_STATUSES = ['booked', 'arrived', 'missed', 'cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/**
 * Appointments in practitioner diaries. Times are kept twice: as the clinic wall time the API speaks
 * (`starts_at`, text, sorts as written) and as UTC instants (`starts_utc`) for overlap checks, which
 * must be right across DST changes. Deleted appointments are kept (audit) but no longer returned.
 */
export const appointments = table(
  'appointments',
  {
    ...tenantColumns(),
    patient_id: ref().notNull(),
    practitioner_id: ref().notNull(),
    location_id: ref().notNull(),
    appointment_type_id: ref().notNull(),
    resource_id: ref(),
    starts_at: text().notNull(),
    ends_at: text().notNull(),
    starts_utc: timestamp().notNull(),
    ends_utc: timestamp().notNull(),
    status: text<AppointmentStatus>().notNull(),
    notes: text(),
    allow_clash: bool().notNull(),
    group_master_id: ref(),
    cancellation_reason: text(),
    cancelled_at: timestamp(),
    arrived_at: timestamp(),
    created_by: text(),
    deleted_at: timestamp(),
  },
  (t) => {
    const on = partialIndex('deleted_at IS NULL');
    return [
      on('appointments_account_id_idx', t.account_id, t.id),
      ...sortIndexes('appointments', t, [t.patient_id, t.practitioner_id, t.location_id], on),
      // The diary checks: a practitioner's (or a resource's) appointments overlapping a time range.
      on('appointments_practitioner_time_idx', t.account_id, t.practitioner_id, t.starts_utc),
      on('appointments_resource_time_idx', t.account_id, t.resource_id, t.starts_utc),
      // The diaries as the API reads them (`practitioner_id=eq:P&starts_at=between:<a week>&sort=starts_at`,
      // and a room's): the wall time the filter and the order name, so a week reads that week's rows in order.
      on('appointments_practitioner_starts_idx', t.account_id, t.practitioner_id, t.starts_at, t.id),
      on('appointments_resource_starts_idx', t.account_id, t.resource_id, t.starts_at, t.id),
      on('appointments_starts_at_idx', t.account_id, t.starts_at, t.id),
      on('appointments_patient_idx', t.account_id, t.patient_id, t.starts_at, t.id),
      on('appointments_location_idx', t.account_id, t.location_id, t.starts_at, t.id),
      on('appointments_type_idx', t.account_id, t.appointment_type_id, t.id),
      on('appointments_status_idx', t.account_id, t.status, t.id),
      // A status over a range (`status=eq:cancelled&starts_at=gte:<30 days ago>`), read range first (engine.ts).
      on('appointments_status_starts_idx', t.account_id, t.status, t.starts_at, t.id),
      on('appointments_group_idx', t.account_id, t.group_master_id, t.id),
      on('appointments_created_at_idx', t.account_id, t.created_at, t.id),
      on('appointments_updated_at_idx', t.account_id, t.updated_at, t.id),
      // The missed-appointments job (server/jobs/missed.ts): a clinic's booked ones, oldest end first.
      partialIndex("status = 'booked' AND deleted_at IS NULL")(
        'appointments_unarrived_idx',
        t.account_id,
        t.ends_utc,
        t.id,
      ),
      ...tenantForeignKey('appointments_patient_fk', t, t.patient_id, () => patients),
    ];
  },
);

/**
 * A counter per diary (`p<id>` a practitioner's, `r<id>` a resource's), bumped in the transaction of
 * every appointment write for the diaries it touches. Availability results are cached per query in each
 * process and reused while the counters of the diaries they read have not moved: a booking (from any
 * process) makes its slot disappear from the very next search, and leaves other practitioners' searches
 * cached (one counter per clinic invalidated every search at every booking, and made every booking of
 * the clinic wait on one row).
 */
export const diaryVersions = table(
  'diary_versions',
  {
    account_id: ref().notNull(),
    diary: text().notNull(),
    version: int().notNull(),
  },
  (t) => [primaryKey({ name: 'diary_versions_pk', columns: [t.account_id, t.diary] })],
);
