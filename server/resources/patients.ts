import { isNull } from 'drizzle-orm';
import { z } from 'zod';
import * as t from '../../db/schema';
import { patientEmbedded, patientEmbeds } from './patient-embeds';
import { addressInput, addressRead } from './addresses';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { numberInput, numberRead } from './numbers';

export const communicationPreferences = z.strictObject({
  appointment_reminders: z.boolean().optional().describe('Send appointment reminders (default true)'),
  marketing: z.boolean().optional().describe('Consent to marketing messages (default false)'),
  preferred_channel: z.enum(['email', 'sms', 'phone', 'post']).nullable().optional(),
});

export const tagRead = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string().nullable(),
  patient_tag_id: z.number().int(),
  editable: z.boolean().describe('false for a tag placed by a care plan: it cannot be removed'),
  added_at: z.string(),
});

const name255 = { maxLength: 255, filterable: true, sortable: true, searchable: true } as const;

export const patients = defineResource({
  name: 'patients',
  singular: 'patient',
  permission: 'patients',
  area: 'patients',
  description: 'Patient files. DELETE soft-deletes: the patient is no longer returned, listed or referable.',
  table: t.patients,
  scope: (table) => isNull((table as typeof t.patients).deleted_at),
  countedOffsets: true,
  searchTable: 'patients_fts',
  embeds: patientEmbedded,
  compute: patientEmbeds,
  write: ['create', 'update', 'delete'],
  deleteSemantics: 'soft-delete',
  rules: {
    create: [
      'referral_source_id and referral_source_type are sent together (422 referral_source_incomplete); the source must exist (422 referral_source_not_found)',
      'default_location_id must be one of the account locations (422 location_not_found)',
      'locale is copied from the account when not sent',
    ],
    update: [
      'numbers reconcile by id: stored id = update in place, no id = add, stored number left out = removed; a list with no ids replaces all',
      'address: only the keys sent change; address: null removes it',
      'metadata merges keys; a null value removes a key',
    ],
  },
  fields: {
    id: f.id(),
    first_name: f.string({ ...name255, write: 'required', input: z.string().trim().min(1).max(255) }),
    last_name: f.string({ ...name255, write: 'required', input: z.string().trim().min(1).max(255) }),
    preferred_name: f.string({ ...name255, nullable: true, write: 'optional' }),
    dob: f.date({ nullable: true, filterable: true, sortable: true, write: 'optional' }),
    email: f.string({
      maxLength: 255,
      nullable: true,
      filterable: true,
      sortable: true,
      searchable: true,
      write: 'optional',
      input: z.email().max(255).nullable(),
      description: 'Not unique: a match is a dedupe candidate, not an identifier',
    }),
    sex: f.enum(t.SEXES, {
      nullable: true,
      filterable: true,
      write: 'optional',
      input: z.enum([...t.SEXES, 'prefer_not_to_say']).nullable(),
      description: 'prefer_not_to_say is accepted on write and reads back as null',
    }),
    locale: f.enum(t.LOCALES, { nullable: true, filterable: true, write: 'optional' }),
    note: f.string({ nullable: true, write: 'optional', input: z.string().max(65535).nullable() }),
    custom_reference: f.string({ maxLength: 255, nullable: true, filterable: true, sortable: true, write: 'optional' }),
    blocked: f.boolean({
      filterable: true,
      write: 'optional',
      description: 'Block online booking; POST /appointments does not check it',
    }),
    default_location_id: f.ref({ nullable: true, filterable: true, write: 'optional' }),
    referral_source_id: f.ref({ nullable: true, filterable: true, write: 'optional' }),
    referral_source_type: f.enum(['referral_source', 'patient'], {
      nullable: true,
      filterable: true,
      write: 'optional',
    }),
    communication_preferences: f.object(communicationPreferences, { write: 'optional' }),
    numbers: f.array(z.array(numberRead), {
      column: false,
      write: 'optional',
      input: z.array(numberInput).max(20).nullable(),
    }),
    address: f.object(addressRead.nullable(), { column: false, write: 'optional', input: addressInput.nullable() }),
    tags: f.array(z.array(tagRead), { column: false, description: 'Placed through patient_tags' }),
    ...standardFields(),
  },
});
