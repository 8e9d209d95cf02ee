/**
 * One clock: the app's (createApp's `now`) stamps records, their audit entries and events, and decides
 * key expiry, so a test that moves it sees the whole app move with it.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { auditLog, events } from '../../db/schema';
import { useClinic } from './helpers';

let clock = Date.parse('2031-05-05T10:00:00.000Z');
const t = useClinic({ now: () => clock });

describe("the app's clock", () => {
  test("a write, its audit entry and its event carry the clock's time", async () => {
    clock = Date.parse('2031-05-05T10:00:00.000Z');
    const created = await t.api.post('/patients', { body: { first_name: 'Clock', last_name: 'Work' } });
    expect(created.status).toBe(201);
    expect(created.body.data.created_at).toBe('2031-05-05T10:00:00.000Z');
    const id = created.body.data.id as number;
    const { db } = t.server.app.db;
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.account_id, t.clinic.account.id), eq(auditLog.entity, 'patients'), eq(auditLog.entity_id, id)),
      );
    expect(new Date(audit.created_at).toISOString()).toBe('2031-05-05T10:00:00.000Z');
    const [event] = await db
      .select()
      .from(events)
      .where(and(eq(events.account_id, t.clinic.account.id), eq(events.entity, 'patients'), eq(events.entity_id, id)));
    expect(new Date(event.occurred_at).toISOString()).toBe('2031-05-05T10:00:00.000Z');

    clock = Date.parse('2031-05-06T08:30:00.000Z');
    const updated = await t.api.patch(`/patients/${id}`, { body: { first_name: 'Clocked' } });
    expect(updated.body.data.updated_at).toBe('2031-05-06T08:30:00.000Z');
  });

  test('a key that expires in 90 days is refused once the clock is past them', async () => {
    clock = Date.now();
    const { issueKey } = await import('./helpers');
    const { secret } = await issueKey(t.server, t.clinic, { expires: '90d' });
    expect((await t.api.get('/me', { key: secret })).status).toBe(200);
    clock = Date.now() + 91 * 86_400_000;
    expect((await t.api.get('/me', { key: secret })).status).toBe(401);
  });
});
