/**
 * What a patient read embeds (numbers, address, tags), as three correlated subqueries selected with the
 * patient row itself: one statement per single read or page, with the JSON built by the database
 * (measured on the single read: four queries became one). The SQL is each dialect's own.
 */
import { sql, type SQL } from 'drizzle-orm';
import { fromDbJson, isPg } from '../../db/dialect';

const SQLITE = {
  numbers: sql`(SELECT json_group_array(json_object('id', n.id, 'number', n.number, 'country_code', n.country_code, 'iso2', n.iso2,
      'type', n.type, 'intl_number', n.intl_number))
    FROM (SELECT * FROM numbers n WHERE n.account_id = "patients"."account_id" AND n.patient_id = "patients"."id" ORDER BY n.id) n)`,
  address: sql`(SELECT json_object('line_1', a.line_1, 'line_2', a.line_2, 'city', a.city, 'state', a.state,
      'postal_code', a.postal_code, 'country', a.country)
    FROM addresses a WHERE a.account_id = "patients"."account_id" AND a.entity_type = 'Patient' AND a.entity_id = "patients"."id")`,
  tags: sql`(SELECT json_group_array(json_object('id', x.id, 'name', x.name, 'color', x.color, 'patient_tag_id', x.patient_tag_id,
      'editable', json(CASE WHEN x.editable THEN 'true' ELSE 'false' END), 'added_at', x.added_at))
    FROM (SELECT t.id, t.name, t.color, pt.id AS patient_tag_id, pt.editable, pt.created_at AS added_at
            FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id
           WHERE pt.account_id = "patients"."account_id" AND pt.patient_id = "patients"."id" ORDER BY pt.id) x)`,
};

const PG = {
  numbers: sql`(SELECT coalesce(json_agg(json_build_object('id', n.id, 'number', n.number, 'country_code', n.country_code,
      'iso2', n.iso2, 'type', n.type, 'intl_number', n.intl_number) ORDER BY n.id), '[]')
    FROM numbers n WHERE n.account_id = "patients"."account_id" AND n.patient_id = "patients"."id")`,
  address: sql`(SELECT json_build_object('line_1', a.line_1, 'line_2', a.line_2, 'city', a.city, 'state', a.state,
      'postal_code', a.postal_code, 'country', a.country)
    FROM addresses a WHERE a.account_id = "patients"."account_id" AND a.entity_type = 'Patient' AND a.entity_id = "patients"."id" LIMIT 1)`,
  tags: sql`(SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color, 'patient_tag_id', pt.id,
      'editable', pt.editable, 'added_at', to_char(pt.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY pt.id), '[]')
    FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.account_id = "patients"."account_id" AND pt.patient_id = "patients"."id")`,
};

/** Extra columns of a patient select: numbers, address, tags. */
export const patientEmbedColumns = (): Record<string, SQL> => (isPg ? PG : SQLITE);


/** The embedded attributes of a selected row (JSON text on SQLite, parsed JSON on PostgreSQL). */
export const patientEmbeds = (row: Record<string, unknown>) => ({
  numbers: fromDbJson(row.numbers) ?? [],
  address: fromDbJson(row.address) ?? null,
  tags: fromDbJson(row.tags) ?? [],
});
