/**
 * The speed shortcuts that reach into library internals — tRPC's procedure definition
 * (server/rest/routes.ts: a GET's resolver called directly) and drizzle's prepared queries
 * (server/list/rows.ts: rows read as arrays and decoded per column) — fall back to the libraries' own
 * paths when those internals change shape. A fallback answers the same, only slower, so nothing else
 * would notice: each one reports here, and server/test/fast-paths.test.ts fails on any report. Only
 * the fallbacks report (one property read); the shortcuts themselves pay nothing.
 */
export type Fallback =
  /** A procedure called through tRPC's middleware chain (`where`: its path). Writes with middleware always are. */
  | 'trpc-chain'
  /** Rows of a prepared select mapped by drizzle, cell by cell (`where`: the dialect). */
  | 'drizzle-row-mapping'
  /** A `sql` column with no decoder where drizzle keeps one (`where`: the selection's key): read undecoded. */
  | 'drizzle-sql-decoder';

/** Tests set `seen` to hear every fallback taken; null in production. */
export const fallbacks: { seen: ((which: Fallback, where: string) => void) | null } = { seen: null };
