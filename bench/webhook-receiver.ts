/**
 * The bench's webhook receiver: a node:http server on loopback, subscribed (through the domain, as the
 * CLI does) to patients.created of a clinic of its own, made for the run (its writes must not change the
 * bench clinic's million patients). `drain()` waits until every message is delivered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, count, eq, ne } from 'drizzle-orm';
import { openDb } from '../db/client';
import { webhookMessages } from '../db/schema';
import { createAccount } from '../server/domain/accounts';
import { createKey } from '../server/domain/api_keys';
import { createEndpoint } from '../server/domain/webhooks';
import { loadSecretsKey } from '../server/auth/secrets';

export async function webhookReceiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const db = await openDb(process.env.DATABASE_URL!);
  await loadSecretsKey(db);
  const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'bench' };
  const account = await createAccount(db, {
    subdomain: `hooks${Date.now()}`,
    region: 'neptune',
    name: 'Bench Hooks',
    timezone: 'Europe/London',
    currency: 'GBP',
  });
  const { secret: key } = await createKey(db, account, actor, { name: 'bench writes', access: 'read_write' });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const { endpoint } = await createEndpoint(db, account, actor, { url, events: ['patients.created'] }, true);
  const undelivered = async () =>
    Number(
      (
        await db.db
          .select({ n: count() })
          .from(webhookMessages)
          .where(and(eq(webhookMessages.endpoint_id, endpoint.id), ne(webhookMessages.status, 'delivered')))
      )[0].n,
    );
  return {
    headers: { host: `${account.subdomain}.neptune.localhost`, authorization: `Bearer ${key}` },
    /** Waits for the worker to deliver everything written; the rate counts from the first wait. */
    async drain(): Promise<{ delivered: number; backlog: number; perSecond: number }> {
      const start = Date.now();
      const before = received;
      const backlog = await undelivered();
      while ((await undelivered()) > 0) {
        if (Date.now() - start > 300_000) throw new Error('webhook deliveries did not finish within 5 minutes');
        await new Promise((r) => setTimeout(r, 200));
      }
      const seconds = (Date.now() - start) / 1000;
      return { delivered: received, backlog, perSecond: backlog ? (received - before) / Math.max(seconds, 0.001) : 0 };
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await db.close();
    },
  };
}
