/**
 * Patient tags set up by staff. Tags have no events of their own (the catalogue lists none): their
 * writes are audited, not announced. A tag in use is not deleted (409): taking it off its patients
 * changes each patient (a patients.updated each, as removing a placement through the API announces), a
 * care plan places it on its members, and timeline entries carry it for the record. Staff remove it
 * from those first, so no patient changes unseen behind one delete.
 */
import { and, count, eq, isNull, max, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { invalid } from '../../errors';
import { carePlans, patientLogTags, patients, patientTags, tags as tagTable } from '../../../db/schema';
import type { StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import { tags } from '../../resources/tags';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

/** A new tag without a sort order comes last. */
async function nextSortOrder(w: WriteContext): Promise<number> {
  const [last] = await w.db.db
    .select({ n: max(tagTable.sort_order) })
    .from(tagTable)
    .where(eq(tagTable.account_id, w.account.id));
  return (last?.n ?? 0) + 1;
}

/**
 * Two tags of one name cannot be told apart on a patient, in a filter or by a screen reader ("Delete
 * Runner" twice): a name is one tag, compared without case or surrounding spaces.
 */
async function refuseTakenName(tx: Db, accountId: number, name: string, self: number | null) {
  const [taken] = await tx
    .select({ id: tagTable.id })
    .from(tagTable)
    .where(
      and(
        eq(tagTable.account_id, accountId),
        sql`lower(trim(${tagTable.name})) = ${name.trim().toLowerCase()}`,
        self === null ? undefined : ne(tagTable.id, self),
      ),
    )
    .limit(1);
  if (taken) throw invalid('name', `A tag called ${name.trim()} already exists`, 'invalid_input');
}

export const createTag = async (w: WriteContext, input: StaffCreateInput<typeof tags>) =>
  createSetupRecord(w, tags, input, {
    defaults: { sort_order: await nextSortOrder(w) },
    check: (tx, after) => refuseTakenName(tx, w.account.id, after.name, null),
  });

export const updateTag = (w: WriteContext, id: number, input: StaffUpdateInput<typeof tags>) =>
  updateSetupRecord(w, tags, id, input, { check: (tx, after) => refuseTakenName(tx, w.account.id, after.name, id) });

export const deleteTag = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, tags, id, {
    inUse: async (tx, before) => {
      const acc = w.account.id;
      // A deleted patient's record is never read again (nor restored): only live patients hold a tag.
      const [placed] = await tx
        .select({ n: count() })
        .from(patientTags)
        .innerJoin(patients, and(eq(patients.account_id, acc), eq(patients.id, patientTags.patient_id)))
        .where(and(eq(patientTags.account_id, acc), eq(patientTags.tag_id, id), isNull(patients.deleted_at)));
      const [planned] = await tx
        .select({ n: count() })
        .from(carePlans)
        .where(and(eq(carePlans.account_id, acc), eq(carePlans.tag_id, id)));
      const [logged] = await tx
        .select({ n: count() })
        .from(patientLogTags)
        .where(and(eq(patientLogTags.account_id, acc), eq(patientLogTags.tag_id, id)));
      refuseIfUsed(
        before.name,
        [
          [placed.n, 'patient'],
          [planned.n, 'care plan'],
          [logged.n, 'timeline entry'],
        ],
        'Remove it from those patients and care plans first; a tag on timeline entries stays for their history (rename it instead).',
      );
    },
  });
