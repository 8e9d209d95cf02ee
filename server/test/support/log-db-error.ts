/**
 * Provokes a real database error whose query carries personal data (a second member with the same
 * email: a unique violation, on either database) and logs it through the app's logger as the request
 * path does, for server/test/logger.test.ts to read back.
 */
import { openDb } from '../../../db/client';
import { users } from '../../../db/schema';
import { createLogger } from '../../logger';

const logger = createLogger('error');
const db = await openDb(process.env.DATABASE_URL!, { migrate: true });
const row = {
  account_id: 999_999_999,
  email: 'ada.secret@example.test',
  name: 'Ada Secretname',
  role: 'admin' as const,
  password_hash: 'x',
  active: true,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
};
try {
  await db.transaction(async (tx) => {
    await tx.insert(users).values(row);
    await tx.insert(users).values(row);
  });
} catch (err) {
  logger.error({ err }, 'request failed');
}
await db.close();
