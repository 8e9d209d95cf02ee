/**
 * The keys of an object literal with their own type, named once. `Object.keys` returns `string[]`
 * because an object may carry more keys than its type says; these are for objects whose keys are exactly
 * their type's (the constant tables the code declares, records it built itself), where the narrowing is
 * sound, and not for what comes from outside (a request body, a JSON column).
 */
export const keysOf = <T extends object>(o: T): (keyof T & string)[] => Object.keys(o) as (keyof T & string)[];

/** The keys as z.enum takes them: a non-empty tuple (every table given here has at least one key). */
export const namesOf = <T extends object>(o: T): [keyof T & string, ...(keyof T & string)[]] =>
  keysOf(o) as [keyof T & string, ...(keyof T & string)[]];

/** The named keys of `o`, and only those. */
export function pickKeys<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) out[k] = o[k];
  return out as Pick<T, K>; // every key of K was set just above
}

/** `o` without its undefined values: a patch whose left-out fields keep what they were when spread over a row. */
export function withoutUndefined<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  }; // only the entries of `o` that hold a value
}
