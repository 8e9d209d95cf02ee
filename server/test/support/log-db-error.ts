/**
 * Provokes a real database error whose query carries personal data (a second member with the same
 * email: a unique violation, on either database) and logs it through the app's logger as each surface
 * does: bare (the REST gateway), wrapped in a TRPCError (portal procedures), in the MCP SDK's McpError
 * (tools), and as the cause of a plain Error with the message copied (jobs, the webhook worker): one line
 * each, for server/test/logger.test.ts to read back.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { TRPCError } from '@trpc/server';
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
  const message = (err as Error).message;
  logger.error({ err }, 'request failed');
  logger.error({ err: new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message, cause: err }) }, 'portal request failed');
  logger.error({ err: Object.assign(new ProtocolError(-32603, message), { cause: err }) }, 'tool failed');
  logger.error({ err: new Error(`job failed: ${message}`, { cause: err }) }, 'job failed');
  logger.error({ err: new Error(message) }, 'webhook delivery failed');
}
await db.close();
