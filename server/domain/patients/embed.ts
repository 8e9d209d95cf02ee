/**
 * Loads what a patient read embeds (numbers, address, tags) for a page of rows, in three queries.
 * Not for use inside a transaction: the single-patient path uses prepared queries (db/prepared.ts).
 */
import { and, asc, eq, inArray, sql, type Placeholder } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { prepared } from '../../../db/prepared';
import type { Db } from '../../../db/client';
import { addresses, numbers, patientTags, tags } from '../../../db/schema';
import type { Row } from '../../resources/define';

type Patients = number[] | Placeholder;

/** The three queries, for a set of patients (a page) or one patient by placeholder (the prepared single read). */
const queries = (db: Db, accountId: number | Placeholder, ids: Patients) => {
  const among = (col: PgColumn) => (Array.isArray(ids) ? inArray(col, ids) : eq(col, ids));
  return {
    numbers: db
      .select()
      .from(numbers)
      .where(and(eq(numbers.account_id, accountId), among(numbers.patient_id)))
      .orderBy(asc(numbers.id)),
    addresses: db
      .select()
      .from(addresses)
      .where(and(eq(addresses.account_id, accountId), eq(addresses.entity_type, 'Patient'), among(addresses.entity_id))),
    tags: db
      .select({
        patient_id: patientTags.patient_id,
        id: tags.id,
        name: tags.name,
        color: tags.color,
        patient_tag_id: patientTags.id,
        editable: patientTags.editable,
        added_at: patientTags.created_at,
      })
      .from(patientTags)
      .innerJoin(tags, eq(tags.id, patientTags.tag_id))
      .where(and(eq(patientTags.account_id, accountId), among(patientTags.patient_id)))
      .orderBy(asc(patientTags.id)),
  };
};

async function load(db: Db, accountId: number, rows: Row[]) {
  if (rows.length === 1) {
    const params = { account: accountId, patient: rows[0].id };
    const byPlaceholder = () => queries(db, sql.placeholder('account'), sql.placeholder('patient'));
    return Promise.all([
      prepared(db, 'patient_embed_numbers', () => byPlaceholder().numbers).execute(params),
      prepared(db, 'patient_embed_addresses', () => byPlaceholder().addresses).execute(params),
      prepared(db, 'patient_embed_tags', () => byPlaceholder().tags).execute(params),
    ]);
  }
  const q = queries(db, accountId, rows.map((r) => r.id as number));
  return Promise.all([q.numbers, q.addresses, q.tags]);
}

export async function embedPatientData(db: Db, accountId: number, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const [nums, addrs, tagRows] = (await load(db, accountId, rows)) as [
    (typeof numbers.$inferSelect)[],
    (typeof addresses.$inferSelect)[],
    { patient_id: number; id: number; name: string; color: string | null; patient_tag_id: number; editable: boolean; added_at: string }[],
  ];
  const byId = new Map(rows.map((r) => [r.id as number, r]));
  for (const r of rows) {
    r.numbers = [];
    r.address = null;
    r.tags = [];
  }
  for (const n of nums) {
    (byId.get(n.patient_id)!.numbers as unknown[]).push({
      id: n.id,
      number: n.number,
      country_code: n.country_code,
      iso2: n.iso2,
      type: n.type,
      intl_number: n.intl_number,
    });
  }
  for (const a of addrs) {
    byId.get(a.entity_id)!.address = {
      line_1: a.line_1,
      line_2: a.line_2,
      city: a.city,
      state: a.state,
      postal_code: a.postal_code,
      country: a.country,
    };
  }
  for (const { patient_id, ...tag } of tagRows) (byId.get(patient_id)!.tags as unknown[]).push(tag);
}
