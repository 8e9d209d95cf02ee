/** Why a setup record cannot be deleted: what still refers to it, counted, in words a receptionist reads. */
import { ApiError } from '../../errors';
import { counted as one } from '../../values/words';

/** A count of references: [n, noun] or, for a plural that is not noun + s, [n, noun, plural]. */
export type Uses = [number, string] | [number, string, string];

/** Counted references, e.g. [[3, 'appointment'], [1, 'practitioner']] → "3 appointments and 1 practitioner". */
export function counted(parts: Uses[]): string {
  const said = parts.filter(([n]) => n > 0).map(([n, noun, many]) => one(n, noun, many));
  return said.length <= 1 ? (said[0] ?? '') : `${said.slice(0, -1).join(', ')} and ${said.at(-1)}`;
}

/** 409 conflict unless nothing refers to the record. `instead` says what to do rather than delete. */
export function refuseIfUsed(what: string, parts: Uses[], instead: string): void {
  const uses = counted(parts);
  if (uses) throw new ApiError('conflict', `${what} is in use (${uses}), so it cannot be deleted. ${instead}`);
}
