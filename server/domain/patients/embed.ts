/** Loads what a patient read embeds (numbers, address, tags) for a page of rows, in three queries. */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { addresses, numbers, patientTags, tags } from '../../../db/schema';
import type { Row } from '../../resources/define';

export async function embedPatientData(db: Db, accountId: number, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id as number);
  const [nums, addrs, tagRows] = await Promise.all([
    db
      .select()
      .from(numbers)
      .where(and(eq(numbers.account_id, accountId), inArray(numbers.patient_id, ids)))
      .orderBy(asc(numbers.id)),
    db
      .select()
      .from(addresses)
      .where(and(eq(addresses.account_id, accountId), eq(addresses.entity_type, 'Patient'), inArray(addresses.entity_id, ids))),
    db
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
      .where(and(eq(patientTags.account_id, accountId), inArray(patientTags.patient_id, ids)))
      .orderBy(asc(patientTags.id)),
  ]);
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
