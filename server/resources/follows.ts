/**
 * Records that belong to another record and go with it: a patient's numbers, address, timeline (and the
 * timeline's tags), files, clinical notes and tag placements when the patient is deleted; an invoice's
 * lines when it is voided; a practitioner's weekly hours when they are deleted. Declared once, on the
 * child resource (`follows`). define.ts turns the declaration into the child's scope (hidden while its
 * parent is gone) and its description; server/domain/cascade.ts into what the parent's delete announces.
 */
import { sql, type SQL } from 'drizzle-orm';
import { isPg } from '../../db/dialect';

export interface Parent {
  /** The parent's resource, and its table. */
  name: string;
  singular: string;
  /** Soft-removed parents: the column set when the parent is gone, and the partial index of the gone ones. */
  gone?: { column: string; index: string; verb: string };
  /** A parent that itself follows another (a timeline entry follows its patient). */
  follows?: Follows;
}

export interface Follows {
  parent: Parent;
  /** The child's column that names the parent. */
  column: string;
}

export const PATIENT: Parent = {
  name: 'patients',
  singular: 'patient',
  gone: { column: 'deleted_at', index: 'patients_deleted_idx', verb: 'deleted (patients are soft-deleted)' },
};
export const INVOICE: Parent = {
  name: 'invoices',
  singular: 'invoice',
  gone: { column: 'voided_at', index: 'invoices_voided_idx', verb: 'voided' },
};
export const PATIENT_LOG: Parent = {
  name: 'patient_logs',
  singular: 'timeline entry',
  follows: { parent: PATIENT, column: 'patient_id' },
};
/** Practitioners are deleted for good: what follows them is deleted with them (it is never hidden). */
export const PRACTITIONER: Parent = { name: 'practitioners', singular: 'practitioner' };

/** The parent up the chain that is removed softly (a timeline tag: the patient), if any. */
export function softRoot(f: Follows): { root: Parent; gone: NonNullable<Parent['gone']> } | null {
  if (f.parent.gone) return { root: f.parent, gone: f.parent.gone };
  return f.parent.follows ? softRoot(f.parent.follows) : null;
}

/** What the child's description says of it. */
export function followRule(f: Follows): string {
  const soft = softRoot(f);
  if (!soft) return `Deleted with its ${f.parent.singular}.`;
  return `Hidden once its ${soft.root.singular} is ${soft.gone.verb}: reads, lists and changes answer as if it did not exist; each is announced then (its own .deleted event, or its parent's) and listed in deleted_entities.`;
}

/**
 * The child's scope: its soft-removed ancestor is not among the gone ones. The check looks the ancestor
 * up among the clinic's gone ones (a partial index of those only: small, and hot in memory) rather than
 * proving it live by its primary key: a capped count of 10,001 children (5M appointments standing in for a
 * big child table) cost 94 ms that way on PostgreSQL, 11 ms this way. An anti-join is also always driven
 * from the children, so no plan can read the clinic's parents first. Every child row names an existing
 * parent (foreign keys on PostgreSQL; soft-removed parents are never deleted), so "not gone" and "live" are
 * the same set. SQLite would rather probe the parent by rowid (16.6 ms for the same count; 3.4 ms through
 * the index), so it is named there.
 */
export function liveParentCondition(table: string, f: Follows): SQL | undefined {
  const soft = softRoot(f);
  if (!soft) return undefined;
  const { root, gone } = soft;
  const goneTable = isPg ? `${root.name} gp` : `${root.name} gp INDEXED BY ${gone.index}`;
  if (f.parent === root) {
    return sql.raw(
      `NOT EXISTS (SELECT 1 FROM ${goneTable} WHERE gp.account_id = "${table}".account_id AND gp.id = "${table}"."${f.column}" AND gp.${gone.column} IS NOT NULL)`,
    );
  }
  // One level between (a timeline tag's entry): joined to its soft-removed parent.
  const between = f.parent.follows!;
  if (between.parent !== root)
    throw new Error(`${table}: follows more than two levels up, which this condition does not join`);
  return sql.raw(
    `NOT EXISTS (SELECT 1 FROM ${f.parent.name} mp JOIN ${goneTable} ON gp.account_id = mp.account_id AND gp.id = mp.${between.column} WHERE mp.account_id = "${table}".account_id AND mp.id = "${table}"."${f.column}" AND gp.${gone.column} IS NOT NULL)`,
  );
}
