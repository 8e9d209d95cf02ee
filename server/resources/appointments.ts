import { isNull } from 'drizzle-orm';
import { z } from 'zod';
import * as t from '../../db/schema';
import { fromDbJson } from '../../db/dialect';
import type { Embed } from '../../db/json';
import { defineResource, type ResourceAction } from './define';
import { f, standardFields } from './fields';

const embeddedPatient = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  preferred_name: z.string().nullable(),
  name: z.string().describe('Display name: preferred name (else first name), then last name'),
});

// The patient, embedded; null once the patient is deleted (the appointment stays in the diary and the
// books; docs/decisions.md).
const PATIENT: Embed = {
  fields: { id: 'p.id', first_name: 'p.first_name', last_name: 'p.last_name', preferred_name: 'p.preferred_name' },
  from: 'patients p',
  account: 'p.account_id',
  key: 'p.id',
  parentColumn: 'patient_id',
  where: 'p.deleted_at IS NULL',
};

type Embedded = Omit<z.infer<typeof embeddedPatient>, 'name'>;

/** The lifecycle actions, POST /appointments/{id}/{action} (docs/decisions.md, "Appointment states"). */
export const APPOINTMENT_ACTIONS = {
  cancel: {
    summary: 'Cancel an appointment',
    description: 'booked → cancelled; the slot becomes free. 409 appointment_rule from any other status.',
    input: z.strictObject({ reason: z.string().max(500).nullable().optional().describe('Why it was cancelled') }),
  },
  arrive: {
    summary: 'Mark the patient arrived',
    description:
      'booked → arrived, from the day of the appointment (409 appointment_rule from any other status, or before that day). Final: an arrival cannot be undone.',
    input: z.strictObject({}),
  },
  miss: {
    summary: 'Mark the appointment missed (did not arrive)',
    description: 'booked → missed, once it has started. 409 appointment_rule for an arrived patient.',
    input: z.strictObject({}),
  },
  reinstate: {
    summary: 'Reinstate a cancelled or missed appointment',
    description:
      'cancelled | missed → booked, only if the slot is still free (409 slot_unavailable; 409 appointment_rule from booked or arrived).',
    input: z.strictObject({}),
  },
} satisfies Record<string, ResourceAction>;
export type LifecycleAction = keyof typeof APPOINTMENT_ACTIONS;

export const appointments = defineResource({
  name: 'appointments',
  singular: 'appointment',
  permission: 'scheduling',
  area: 'appointments',
  description:
    'Appointments in practitioner diaries. Times are clinic wall times in the account timezone. status: booked → arrived | missed | cancelled; ' +
    'POST /appointments/{id}/cancel, /arrive, /miss, /reinstate move it; PATCH reschedules. DELETE removes it.',
  table: t.appointments,
  scope: (table) => isNull((table as typeof t.appointments).deleted_at),
  countedOffsets: true,
  embeds: { patient: PATIENT },
  embedPermissions: { patient: 'patients' },
  everyday: [
    { asked: "a practitioner's diary", eq: ['practitioner_id'], range: 'starts_at' },
    { asked: "a room's diary", eq: ['resource_id'], range: 'starts_at' },
    { asked: "a patient's appointments", eq: ['patient_id'], range: 'starts_at' },
    { asked: "a site's day", eq: ['location_id'], range: 'starts_at' },
    { asked: 'cancellations (or any status) over a period', eq: ['status'], range: 'starts_at' },
    { asked: 'every appointment of a period', eq: [], range: 'starts_at' },
  ],
  compute: (row) => {
    const p = fromDbJson<Embedded | null>(row.patient);
    return { patient: p && { ...p, name: `${p.preferred_name || p.first_name} ${p.last_name}` } };
  },
  write: ['create', 'update', 'delete'],
  actions: APPOINTMENT_ACTIONS,
  deleteSemantics: 'removes the appointment: 404 afterwards, listed in deleted_entities',
  rules: {
    create: [
      'patient_id, practitioner_id, location_id, appointment_type_id must exist (422 patient_not_found, practitioner_not_found, location_not_found, appointment_type_not_found)',
      'the practitioner must offer the appointment type at the location, and the type must be active (422 invalid_input)',
      'resource_id must be an active resource at the location (422 resource_unavailable); a type that requires a resource gets the first free one when none is named',
      'ends_at defaults to starts_at + the type duration; it must be after starts_at and at most 24 hours later (422)',
      'the range must lie in working time and clash with no other booking of the practitioner or the resource (409 slot_unavailable) unless allow_clash is true',
      'a group type joins the session already running at that time (or the one named by group_master_id) while it has places (409 group_full)',
    ],
    update: [
      'changing starts_at, ends_at, practitioner_id, location_id, appointment_type_id or resource_id reschedules: only a booked appointment (409 appointment_rule otherwise), and the diary is checked again (409 slot_unavailable unless allow_clash)',
      'notes, patient_id and metadata can change in any status; group_master_id is set only when booking',
    ],
  },
  fields: {
    id: f.id(),
    patient_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    practitioner_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    location_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    appointment_type_id: f.ref({ filterable: true, write: 'required' }),
    resource_id: f.ref({
      nullable: true,
      filterable: true,
      write: 'optional',
      description: 'Room, table or bench (GET /resources)',
    }),
    starts_at: f.wallTime({ filterable: true, sortable: true, write: 'required' }),
    ends_at: f.wallTime({ write: 'optional', description: 'Defaults to starts_at plus the appointment type duration' }),
    starts_at_utc: f.timestamp({
      column: 'starts_utc',
      description: 'The start as a UTC instant (unambiguous across DST changes)',
    }),
    ends_at_utc: f.timestamp({ column: 'ends_utc', description: 'The end as a UTC instant' }),
    status: f.enum(t.APPOINTMENT_STATUSES, {
      filterable: true,
      description: 'booked, arrived, missed or cancelled; changed by the lifecycle actions only',
    }),
    notes: f.string({ nullable: true, write: 'optional', input: z.string().max(10_000).nullable() }),
    allow_clash: f.boolean({
      write: 'optional',
      description: 'Booked as a deliberate overbooking: the diary check was skipped',
    }),
    group_master_id: f.ref({
      nullable: true,
      filterable: true,
      write: 'optional',
      description: 'The first booking of the group session this one joined',
    }),
    cancellation_reason: f.string({ nullable: true, description: 'Reason given when cancelled' }),
    cancelled_at: f.timestamp({ nullable: true }),
    arrived_at: f.timestamp({ nullable: true }),
    patient: f.object(embeddedPatient.nullable(), {
      column: false,
      description:
        'The patient; null once the patient is deleted (the appointment stays, patient_id still names them). A copy that follows the patient’s own events (patients.updated, patients.deleted): it changes with no appointment event and no change of the appointment’s updated_at',
    }),
    ...standardFields(),
  },
});
