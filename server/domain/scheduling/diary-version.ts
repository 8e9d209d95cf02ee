/**
 * Diary counters (db/schema/appointments.ts, diary_versions): one per practitioner (`p<id>`) and per
 * resource (`r<id>`). Every appointment write bumps the diaries it touches, before and after; a cached
 * part of an availability search is reused while the counters of the diaries it read have not moved.
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
  const all = refs.flatMap((r) =>
    r.resource_id == null
      ? [practitionerDiary(r.practitioner_id)]
      : [practitionerDiary(r.practitioner_id), resourceDiary(r.resource_id)],
  );
  return [...new Set(all)].sort();
}

/**
 * The clinic's setup (hours, who offers what where, types, rooms): moved by every setup write that changes
 * slots, with every practitioner's diary. A cached search plans again (its candidates, its resources) when
 * it moves.
 */
export const SETUP_DIARY = 'setup';

/** In the transaction of every appointment write, with the diaries it touched (before and after a move). */
export async function bumpDiaries(
  tx: Db,
  accountId: number,
  refs: readonly DiaryRef[],
  also: readonly string[] = [],
): Promise<void> {
  const diaries = [...new Set([...diariesOf(refs), ...also])].sort();
  if (!diaries.length) return;
  await tx
    .insert(diaryVersions)
    .values(diaries.map((diary) => ({ account_id: accountId, diary, version: 1 })))
    .onConflictDoUpdate({
      target: [diaryVersions.account_id, diaryVersions.diary],
      set: { version: sql`${diaryVersions.version} + 1` },
    });
}

/** The diaries' counters (0 for a diary never written): a cached result read at other versions is stale. */
export async function versionsOf(db: Db, accountId: number, diaries: readonly string[]): Promise<Map<string, number>> {
  const versions = new Map(diaries.map((d) => [d, 0]));
  if (!diaries.length) return versions;
  const rows = await db
    .select({ diary: diaryVersions.diary, version: diaryVersions.version })
    .from(diaryVersions)
    .where(and(eq(diaryVersions.account_id, accountId), inArray(diaryVersions.diary, [...diaries])));
  for (const r of rows) versions.set(r.diary, Number(r.version));
  return versions;
}
