/**
 * Values generated once and shared through the database by every process (the cursor-signing secret,
 * the key that encrypts webhook secrets): the first process to start stores its candidate, every other
 * one reads that value back.
 */
import { sql } from 'drizzle-orm';
import type { DbHandle } from './client';
import { settings } from './schema';

export async function sharedSetting(db: DbHandle, key: string, candidate: string): Promise<string> {
  await db.transaction((tx) => tx.insert(settings).values({ key, value: candidate }).onConflictDoNothing());
  const [row] = await db.all<{ value: string }>(sql`select value from ${settings} where key = ${key}`);
  return row.value;
}
