import { z } from 'zod';
import * as t from '../../db/schema';
import { PATIENT } from './follows';
import { defineResource } from './define';
import { f, standardFields } from './fields';

const line = z.string().max(255).nullable().optional();

/** The embedded `address` of a patient: the write shape, also used to read it back. */
export const addressInput = z.strictObject({
  line_1: line,
  line_2: line,
  city: line,
  state: line,
  postal_code: z.string().max(32).nullable().optional(),
  country: z.string().max(255).nullable().optional(),
});

export const addressRead = z.object({
  line_1: z.string().nullable(),
  line_2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
});

export const addresses = defineResource({
  name: 'addresses',
  singular: 'address',
  permission: 'patients',
  area: 'patients',
  description: 'Postal addresses of patients. Read-only: written only nested in patients (address).',
  table: t.addresses,
  follows: { parent: PATIENT, column: 'entity_id' },
  everyday: [{ asked: "a city's addresses added over a period", eq: ['city'], range: 'created_at' }],
  fields: {
    id: f.id(),
    entity_type: f.enum(['Patient'], { filterable: true }),
    entity_id: f.ref({ filterable: true }),
    line_1: f.string({ nullable: true, filterable: true }),
    line_2: f.string({ nullable: true, filterable: true }),
    line_3: f.string({ nullable: true, filterable: true }),
    city: f.string({ nullable: true, filterable: true }),
    state: f.string({ nullable: true, filterable: true }),
    postal_code: f.string({ nullable: true, filterable: true }),
    country: f.string({ nullable: true, filterable: true }),
    ...standardFields(),
  },
});
