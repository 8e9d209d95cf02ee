/**
 * Diary counters (db/schema/appointments.ts, diary_versions): one per practitioner (`p<id>`) and per
 * resource (`r<id>`). Every appointment write bumps the diaries it touches, before and after; a cached
 * availability search is reused while the sum of its diaries' counters has not moved (counters only
 * grow, so an equal sum over the same diaries means none moved).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { diaryVersions } from '../../../db/schema';

/** What an appointment occupies: its practitioner's diary and, when it holds one, a resource's. */
export interface DiaryRef {
  practitioner_id: number;
  resource_id: number | null;
}

export const practitionerDiary = (id: number) => `p${id}`;
export const resourceDiary = (id: number) => `r${id}`;

/** The diaries of some appointments (or slots), each once, in one order: two writers never lock them in a cycle. */
export function diariesOf(refs: readonly DiaryRef[]): string[] {
  const all = refs.flatMap((r) => (r.resource_id == null ? [practitionerDiary(r.practitioner_id)] : [practitionerDiary(r.practitioner_id), resourceDiary(r.resource_id)]));
  return [...new Set(all)].sort();
}

/** In the transaction of every appointment write, with the diaries it touched (before and after a move). */
export async function bumpDiaries(tx: Db, accountId: number, refs: readonly DiaryRef[]): Promise<void> {
  const diaries = diariesOf(refs);
  if (!diaries.length) return;
  await tx
    .insert(diaryVersions)
    .values(diaries.map((diary) => ({ account_id: accountId, diary, version: 1 })))
    .onConflictDoUpdate({ target: [diaryVersions.account_id, diaryVersions.diary], set: { version: sql`${diaryVersions.version} + 1` } });
}

/** The sum of the diaries' counters: moves whenever any of them is bumped. */
export async function diariesVersion(db: Db, accountId: number, diaries: readonly string[]): Promise<number> {
  if (!diaries.length) return 0;
  const [row] = await db
    .select({ sum: sql<number | string | null>`sum(${diaryVersions.version})` })
    .from(diaryVersions)
    .where(and(eq(diaryVersions.account_id, accountId), inArray(diaryVersions.diary, [...diaries])));
  return Number(row?.sum ?? 0);
}
