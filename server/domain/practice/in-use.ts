/** Why a setup record cannot be deleted: what still refers to it, counted, in words a receptionist reads. */
import { ApiError } from '../../errors';

/** Counted references, e.g. [[3, 'appointment'], [1, 'practitioner']] → "3 appointments and 1 practitioner". */
export function counted(parts: [number, string][]): string {
  const said = parts.filter(([n]) => n > 0).map(([n, noun]) => `${n} ${noun}${n === 1 ? '' : 's'}`);
  return said.length <= 1 ? (said[0] ?? '') : `${said.slice(0, -1).join(', ')} and ${said.at(-1)}`;
}

/** 409 conflict unless nothing refers to the record. `instead` says what to do rather than delete. */
export function refuseIfUsed(what: string, parts: [number, string][], instead: string): void {
  const uses = counted(parts);
  if (uses) throw new ApiError('conflict', `${what} is in use (${uses}), so it cannot be deleted. ${instead}`);
}
