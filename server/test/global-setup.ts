import { openDb } from '../../db/client';

/** Migrates the test database once, before the workers start. */
export default async function setup() {
  const url = process.env.DATABASE_URL!;
  const db = await openDb(url, { migrate: true });
  await db.close();
  console.log(`test database: ${url.replace(/\/\/[^@]*@/, '//')}`);
}
