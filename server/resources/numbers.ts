import { z } from 'zod';
import * as t from '../../db/schema';
import { PATIENT } from './follows';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { REGION_COUNTRY, searchKeyIn } from '../values/phone';

const numberType = z.enum(t.NUMBER_TYPES);

/** The embedded `numbers[]` entry of a patient, as read. */
export const numberRead = z.object({
  id: z.number().int(),
  number: z.string(),
  country_code: z.string().nullable(),
  iso2: z.string().nullable(),
  type: numberType,
  intl_number: z.string().nullable().describe('E.164 form, derived from number and iso2/country_code'),
});

/** The embedded `numbers[]` entry of a patient, as written: id present = update that stored number. */
export const numberInput = z.strictObject({
  id: z.number().int().min(1).optional(),
  number: z.string().min(1).max(50),
  country_code: z
    .string()
    .regex(/^\+?\d{1,4}$/)
    .nullable()
    .optional(),
  iso2: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .nullable()
    .optional(),
  type: numberType,
});

export const numbers = defineResource({
  name: 'numbers',
  singular: 'number',
  permission: 'patients',
  area: 'patients',
  description: 'Patient phone numbers. Read-only: written only nested in patients (numbers[]).',
  table: t.numbers,
  follows: { parent: PATIENT, column: 'patient_id' },
  fields: {
    id: f.id(),
    patient_id: f.ref({ filterable: true, sortable: true }),
    number: f.string({ filterable: true }),
    country_code: f.string({ nullable: true, filterable: true }),
    iso2: f.string({ nullable: true, filterable: true }),
    type: f.enum(t.NUMBER_TYPES, { filterable: true }),
    intl_number: f.string({ nullable: true, filterable: true }),
    ...standardFields(),
  },
  filterOnly: {
    // The stored search key (index numbers_search_key_idx), never read as an attribute.
    phone: f.string({
      column: 'search_key',
      // The value is read as stored numbers were: any spelling of a number meets its stored key.
      operand: (raw: string, region: string) => searchKeyIn(raw, REGION_COUNTRY[region]) ?? raw,
      description:
        "A phone number in any spelling (07700 900101, +447700900101): read in the clinic's country unless it starts with + or 00, and matched against stored numbers read the same way.",
    }),
  },
});
