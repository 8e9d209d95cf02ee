/**
 * `clinic practice-settings` as a user runs it (the suite's database, the suite's Node): prints the
 * settings as JSON, changes them through the same rule as the portal's Settings page, logs the change
 * with the command line as actor, and refuses a bad value with one line and exit code 2, changing nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { practiceSettingsOf } from '../domain/practice_settings';
import { newClinic, startServer, type Clinic, type TestServer } from './helpers';
import { clinic } from './support/cli';

/** Each command is a new process: seconds each on a loaded machine (as server/test/cli.test.ts). */
const CLI_BUDGET_MS = 180_000;

let server: TestServer;
let c: Clinic;
let at: string[];
beforeAll(async () => {
  server = await startServer();
  c = await newClinic(server);
  at = ['--clinic', c.account.subdomain, '--region', c.account.region];
});
afterAll(() => server.close());

const entries = () =>
  server.app.db.db
    .select({ actor_type: auditLog.actor_type, actor_name: auditLog.actor_name, changes: auditLog.changes })
    .from(auditLog)
    .where(and(eq(auditLog.account_id, c.account.id), eq(auditLog.entity, 'practice_settings')))
    .orderBy(auditLog.id);

describe('clinic practice-settings', { timeout: CLI_BUDGET_MS }, () => {
  it('prints the settings; N hours turns marking missed on, off turns it off and keeps the hours; each change logged', async () => {
    const read = await clinic('practice-settings', ...at);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual({ mark_missed: false, mark_missed_after_hours: 2 });

    const on = await clinic('practice-settings', ...at, '--missed-after-hours', '5');
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toEqual({ mark_missed: true, mark_missed_after_hours: 5 });
    expect(on.stderr).toBe('unarrived appointments are marked missed 5 hour(s) after they end\n');
    const off = await clinic('practice-settings', ...at, '--missed-after-hours', 'off');
    expect(off.code, off.stderr).toBe(0);
    expect(await practiceSettingsOf(server.app.db.db, c.account.id)).toEqual({
      mark_missed: false,
      mark_missed_after_hours: 5,
    });
    expect(await entries()).toEqual([
      {
        actor_type: 'user',
        actor_name: 'command line',
        changes: { mark_missed: { from: false, to: true }, mark_missed_after_hours: { from: 2, to: 5 } },
      },
      { actor_type: 'user', actor_name: 'command line', changes: { mark_missed: { from: true, to: false } } },
    ]);
  });

  it('a bad value or clinic is one line on stderr, exit code 2, nothing changed', async () => {
    const before = await entries();
    for (const [args, message] of [
      [
        [...at, '--missed-after-hours', '0'],
        /^clinic: --missed-after-hours: must be a whole number of hours from 1 to 168/,
      ],
      [[...at, '--missed-after-hours', '169'], /from 1 to 168/],
      [[...at, '--missed-after-hours', 'soon'], /--missed-after-hours must be a number of hours or off/],
      [['--clinic', 'nosuch', '--region', 'neptune', '--missed-after-hours', '3'], /no account nosuch/],
    ] as const) {
      const res = await clinic('practice-settings', ...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await entries()).toEqual(before);
    expect(await practiceSettingsOf(server.app.db.db, c.account.id)).toEqual({
      mark_missed: false,
      mark_missed_after_hours: 5,
    });
  });
});
