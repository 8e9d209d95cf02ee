/**
 * Children written nested in their parent and reconciled by id (a patient's numbers, an invoice's
 * lines), under one rule set: an entry with a stored child's id updates that child; an entry without an
 * id is added; a stored child left out is removed, so a list with no ids replaces them all. An id that
 * is not one of the parent's children, or that comes twice, is 422 invalid_input naming
 * `{attribute}.{index}.id`, and nothing is written.
 */
import { invalid } from '../errors';

/** Checks the entries against the stored ids; returns the stored ids the entries leave out. */
export function reconcileById(
  storedIds: readonly number[],
  entries: readonly { id?: number }[],
  attribute: string,
  child: string,
): number[] {
  const stored = new Set(storedIds);
  const listed = new Set<number>();
  entries.forEach((e, i) => {
    if (e.id === undefined) return;
    if (!stored.has(e.id)) throw invalid(`${attribute}.${i}.id`, `is not ${child}`, 'invalid_input');
    if (listed.has(e.id)) throw invalid(`${attribute}.${i}.id`, `names ${child} already listed`, 'invalid_input');
    listed.add(e.id);
  });
  return storedIds.filter((id) => !listed.has(id));
}
