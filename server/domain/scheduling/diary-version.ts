/** The per-account diary counter (db/schema/appointments.ts, diary_versions). */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { diaryVersions } from '../../../db/schema';

/** In the transaction of every appointment write. */
export async function bumpDiaryVersion(tx: Db, accountId: number): Promise<void> {
  await tx
    .insert(diaryVersions)
    .values({ account_id: accountId, version: 1 })
    .onConflictDoUpdate({ target: diaryVersions.account_id, set: { version: sql`${diaryVersions.version} + 1` } });
}

export async function diaryVersion(db: Db, accountId: number): Promise<number> {
  const query = prepared(db, 'diary_version', () =>
    db.select({ version: diaryVersions.version }).from(diaryVersions).where(eq(diaryVersions.account_id, sql.placeholder('account'))),
  );
  const [row] = await query.execute({ account: accountId });
  return row?.version ?? 0;
}
