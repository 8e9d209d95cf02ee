/**
 * What a patient read embeds (numbers, address, tags), as three correlated subqueries selected with the
 * patient row itself: one statement per single read or page, with the JSON built by the database
 * (measured on the single read: four queries became one), written once for both dialects (db/json.ts).
 */
import type { z } from 'zod';
import type { addressRead } from './addresses';
import type { numberRead } from './numbers';
import type { tagRead } from './patients';
import { fromDbJson } from '../../db/dialect';
import { jsonArray, jsonObject } from '../../db/json';

const EMBEDS = {
  numbers: jsonArray(
    { id: 'n.id', number: 'n.number', country_code: 'n.country_code', iso2: 'n.iso2', type: 'n.type', intl_number: 'n.intl_number' },
    `FROM numbers n WHERE n.account_id = "patients"."account_id" AND n.patient_id = "patients"."id"`,
    'n.id',
  ),
  address: jsonObject(
    { line_1: 'a.line_1', line_2: 'a.line_2', city: 'a.city', state: 'a.state', postal_code: 'a.postal_code', country: 'a.country' },
    `FROM addresses a WHERE a.account_id = "patients"."account_id" AND a.entity_type = 'Patient' AND a.entity_id = "patients"."id"`,
  ),
  tags: jsonArray(
    { id: 't.id', name: 't.name', color: 't.color', patient_tag_id: 'pt.id', editable: 'pt.editable', added_at: 'pt.created_at' },
    `FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.account_id = "patients"."account_id" AND pt.patient_id = "patients"."id"`,
    'pt.id',
    { editable: 'bool', added_at: 'timestamp' },
  ),
};

/** Extra columns of a patient select: numbers, address, tags. */
export const patientEmbedColumns = () => EMBEDS;

/** The embedded attributes of a selected row (JSON text on SQLite, parsed JSON on PostgreSQL). */
export const patientEmbeds = (row: Record<keyof typeof EMBEDS, unknown>) => ({
  numbers: fromDbJson<z.infer<typeof numberRead>[] | null>(row.numbers) ?? [],
  address: fromDbJson<z.infer<typeof addressRead> | null>(row.address) ?? null,
  tags: fromDbJson<z.infer<typeof tagRead>[] | null>(row.tags) ?? [],
});
