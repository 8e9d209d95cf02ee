/**
 * Outsiders cannot fill a clinic's request log (issue 37 §3): refusals of the spent unauthenticated
 * budget are not stored, unknown paths are stored as (unknown path), undocumented parameter names as
 * (other), and stored error messages do not echo what was sent.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { requestLog } from '../../db/schema';
import { UNDOCUMENTED, UNKNOWN_PATH } from '../rest/request-log';
import { request, useClinic } from './helpers';

const t = useClinic({ env: { RATE_LIMIT_UNAUTH_PER_MINUTE: '2', TRUST_PROXY: '1' } });
const rows = async () => {
  await t.server.app.requestLog.flush();
  return t.server.app.db.db.select().from(requestLog).where(eq(requestLog.account_id, t.clinic.account.id));
};

describe('the request log keeps what the clinic can act on, not what an outsider writes', () => {
  test('40 requests without credentials to an alarming path: the budget’s 2 are stored, as (unknown path)', async () => {
    const before = (await rows()).length;
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await request(t.server, 'GET', '/FAKE-ALERT-key-compromised-call-+44-20-0000-0000', {
        host: t.clinic.host,
        key: null,
        headers: { 'x-forwarded-for': ip },
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(38);
    const stored = (await rows()).slice(before);
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      expect(row.path).toBe(`/v3/api/${UNKNOWN_PATH}`);
      expect(JSON.stringify(row)).not.toMatch(/FAKE|ALERT|\+44/);
    }
  });

  test('undocumented parameter names and echoed attribute names are not stored', async () => {
    const before = (await rows()).length;
    const res = await t.api.get('/patients?jane.doe%40example.com=1');
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('jane.doe@example.com');
    await t.api.get('/patients?sort=Jane%20Doe');
    await t.api.get('/patients/Jane-Doe');
    const stored = (await rows()).slice(before);
    expect(stored.map((r) => r.query)).toEqual([`${UNDOCUMENTED}=***`, 'sort=***', null]);
    expect(stored[2].path).toBe('/v3/api/patients/***');
    for (const row of stored) expect(JSON.stringify(row)).not.toMatch(/jane|Jane/);
  });
});
