/**
 * The request log as the portal reads it (issue 25 §4): each row says what a developer debugging a call
 * needs (method, path with its query, status and error code, duration, key, client address, X-Request-Id,
 * time) and nothing personal (query values of personal kinds redacted, no bodies); filters by request
 * id, days in the clinic's zone, status class, method, key and path; keyset pages; tenants walled off;
 * bad input refused clearly; every filter served by an index led by account_id.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { isPg } from '../../db/dialect';
import { requestLog } from '../../db/schema';
import { ANSWERED_WITHIN_MS, listRequests, type RequestQuery } from '../domain/request_log';
import { redactQuery, REDACTED, timeOrderedId } from '../rest/request-log';
import { billingFixture } from './billing-fixture';
import { newClinic, request, startServer, useClinic, type Clinic, type Res } from './helpers';
import { ownDatabaseUrl } from './support/own-database';
import { portalCode, portalData, signedIn } from './support/portal';
import { recordingDb } from './support/recording-db';
import { planOf } from './support/plans';

// 2026-03-10 12:00 UTC is 08:00 in New York (EDT since 8 March).
const START = Date.parse('2026-03-10T12:00:00Z');
let clock = START;
const t = useClinic({ now: () => clock, clinic: { timezone: 'America/New_York' } });

const rest = (
  clinic: Clinic,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = clinic.key,
): Promise<Res> => request(t.server, method, path, { host: clinic.host, key, body });
const flush = () => t.server.app.requestLog.flush();
type Listed = {
  id: number;
  method: string;
  path: string;
  query: string | null;
  status: number;
  error: { code: string; message: string } | null;
  request_id: string;
  client_ip: string;
  key: { id: number; name: string } | null;
  created_at: string;
  duration_ms: number;
};
const rows = (res: Res): Listed[] => portalData(res).data;

describe('a row says what happened, and nothing personal', () => {
  test('method, path with its query, status, error code and message, duration, key, client address, X-Request-Id and time; the detail by id', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const list = await rest(
      t.clinic,
      'GET',
      '/patients?last_name=eq:Smith&dob=1980-02-01&email=like:%25ann%25&sex=female&id=in:1,2&created_at=gte:2026-01-01T00:00:00Z&page_size=2&sort=last_name:desc',
    );
    expect(list.status).toBe(200);
    const refused = await rest(t.clinic, 'POST', '/patients', {
      first_name: 'Ann',
      last_name: 'Secret-Surname',
      email: 'not an email',
    });
    expect(refused.status).toBe(422);
    await flush();

    const [post, get] = rows(await portal.query('requests.list', { path: '/patients' }));
    expect(get).toMatchObject({
      method: 'GET',
      path: '/v3/api/patients',
      status: 200,
      error: null,
      key: { name: 'Test integration' },
      request_id: list.headers['x-request-id'],
    });
    // Personal kinds (string, date) keep only their operator; closed kinds (enum, ids, times), paging and sort stay as sent.
    expect(get.query).toBe(
      `last_name=eq:${REDACTED}&dob=${REDACTED}&email=like:${REDACTED}&sex=female&id=in:1,2&created_at=gte:2026-01-01T00:00:00Z&page_size=2&sort=last_name:desc`,
    );
    expect(get.client_ip).toMatch(/127\.0\.0\.1$/);
    expect(get.duration_ms).toBeGreaterThanOrEqual(0);
    expect(get.created_at).toBe(new Date(START).toISOString());

    expect(post).toMatchObject({
      method: 'POST',
      status: 422,
      query: null,
      request_id: refused.headers['x-request-id'],
      error: { code: refused.body.code, message: refused.body.message },
    });
    // Request ids carry their arrival (UUIDv7): the time index finds them.
    expect(post.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const detail = portalData(await portal.query('requests.get', { id: post.id }));
    expect(detail).toEqual(post);
    // Nothing the client sent of a patient is stored: no body, no personal query value.
    const stored = JSON.stringify(
      await t.server.app.db.db.select().from(requestLog).where(eq(requestLog.account_id, t.clinic.account.id)),
    );
    for (const personal of ['Smith', 'Secret-Surname', 'not an email', '1980-02-01', 'ann'])
      expect(stored).not.toContain(personal);
  });

  test.each([
    [
      '/v3/api/patients',
      'last_name=Smith&first_name=contains:An',
      `last_name=${REDACTED}&first_name=contains:${REDACTED}`,
    ],
    [
      '/v3/api/appointments',
      'status=in:booked,arrived&status=eq:Smith&starts_at=between:2026-03-01T09:00:00,2026-03-02T09:00:00',
      `status=in:booked,arrived&status=eq:${REDACTED}&starts_at=between:2026-03-01T09:00:00,2026-03-02T09:00:00`,
    ],
    [
      '/v3/api/patients',
      'cursor=eyJsYXN0X25hbWUiOiJTbWl0aCJ9&page=x&sort=Smith',
      `cursor=${REDACTED}&page=${REDACTED}&sort=${REDACTED}`,
    ],
    [
      '/v3/api/patients',
      'metadata[nhs]=943&blocked=true&deleted_at=null&dob=not-null',
      `metadata[nhs]=${REDACTED}&blocked=true&(other)=${REDACTED}&dob=not-null`,
    ],
    // The availability search names no patient: its values are kept where its own schema accepts them.
    [
      '/v3/api/availability',
      'from=2026-03-01&practitioner_id=3&limit=5&visibility=online&to=next friday&location_id=x',
      `from=2026-03-01&practitioner_id=3&limit=5&visibility=online&to=${REDACTED}&location_id=${REDACTED}`,
    ],
    ['/v3/api/__proto__', 'id=1', `id=${REDACTED}`],
    ['/v3/api/invoices', 'total=gte:10.50&total=lt:1e9', `total=gte:10.50&total=lt:${REDACTED}`],
  ])('%s?%s is stored as %s', (path, search, stored) => {
    expect(redactQuery(path, search)).toBe(stored);
  });
});

describe('filters', () => {
  test('by request id (as pasted), method, status class, key and path; a filter that matches nothing is an empty page', async () => {
    const clinic = await newClinic(t.server, { timezone: 'America/New_York' });
    const { portal } = await signedIn(t.server, clinic, 'admin');
    const other = portalData(
      await portal.mutate('keys.create', { name: 'Other job', access: 'read_only', expires: 'never' }),
    );
    const a = await rest(clinic, 'GET', '/patients/999999');
    await rest(clinic, 'POST', '/patients', { first_name: 'Ann', last_name: 'Lee' });
    await rest(clinic, 'GET', '/me', undefined, other.secret);
    await rest(clinic, 'DELETE', '/patients/999999');
    await flush();
    const list = async (filters: object) =>
      rows(await portal.query('requests.list', filters)).map((r) => `${r.method} ${r.status} ${r.path}`);

    const id = String(a.headers['x-request-id']);
    expect(await list({ request_id: `  ${id.toUpperCase()} ` })).toEqual(['GET 404 /v3/api/patients/999999']);
    expect(await list({ request_id: '0190aaaa-0000-7000-8000-000000000000' })).toEqual([]);
    expect(await list({ method: 'DELETE' })).toEqual(['DELETE 404 /v3/api/patients/999999']);
    expect(await list({ status_class: '2xx' })).toEqual(['GET 200 /v3/api/me', 'POST 201 /v3/api/patients']);
    expect(await list({ status_class: '4xx', method: 'GET' })).toEqual(['GET 404 /v3/api/patients/999999']);
    expect(await list({ key_id: other.id })).toEqual(['GET 200 /v3/api/me']);
    expect(await list({ path: '/patients/' })).toEqual([
      'DELETE 404 /v3/api/patients/999999',
      'GET 404 /v3/api/patients/999999',
    ]);
    expect(await list({ path: '/v3/api/patients/' })).toHaveLength(2);
    expect(await list({ path: 'me' })).toEqual(['GET 200 /v3/api/me']);
    // LIKE's wildcards are plain characters in a path prefix.
    expect(await list({ path: '/pat%' })).toEqual([]);
  });

  test('by days in the clinic’s zone, both included: 23:30 in New York is that day, though it is the next in UTC', async () => {
    const clinic = await newClinic(t.server, { timezone: 'America/New_York' });
    const { portal } = await signedIn(t.server, clinic, 'admin');
    const at = async (iso: string, path: string) => {
      clock = Date.parse(iso);
      await rest(clinic, 'GET', path);
    };
    await at('2026-03-11T03:59:00Z', '/ping'); // 10 March, 23:59 in New York
    await at('2026-03-11T04:00:00Z', '/me'); // 11 March, 00:00
    await at('2026-03-12T03:30:00Z', '/patients'); // 11 March, 23:30
    await at('2026-03-12T04:30:00Z', '/schema'); // 12 March, 00:30
    clock = START;
    await flush();
    const paths = async (filters: object) =>
      rows(await portal.query('requests.list', filters)).map((r) => r.path.replace('/v3/api', ''));
    expect(await paths({ from: '2026-03-11', to: '2026-03-11' })).toEqual(['/patients', '/me']);
    expect(await paths({ from: '2026-03-11' })).toEqual(['/schema', '/patients', '/me']);
    expect(await paths({ to: '2026-03-10' })).toEqual(['/ping']);
    expect(await paths({ from: '2026-03-13' })).toEqual([]);
  });

  test('pages newest first with a keyset cursor: every row once, in order, also when rows share a time', async () => {
    const clinic = await newClinic(t.server);
    const { portal } = await signedIn(t.server, clinic, 'admin');
    // 31 requests in the same millisecond: the id breaks the tie.
    for (let i = 0; i < 31; i++) await rest(clinic, 'GET', `/patients/${i + 1}`);
    await flush();
    const first = portalData(await portal.query('requests.list', { method: 'GET' }));
    expect(first.data).toHaveLength(25);
    const second = portalData(await portal.query('requests.list', { method: 'GET', before: first.next_before }));
    expect(second.data).toHaveLength(6);
    expect(second.next_before).toBeNull();
    const ids = [...first.data, ...second.data].map((r: Listed) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(new Set(ids).size).toBe(31);
  });
});

test('a request answered 503 request_timeout at the deadline is logged as answered, once its work ends', async () => {
  // The invoice's numbering waits for the test: the deadline passes inside it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // A database of its own: on SQLite another server of this process writing the shared file while the
  // invoice holds its write lock waits with the event loop blocked (the busy timeout is synchronous, and
  // handles do not share their queue), the deadline's 503 with it.
  const slow = await startServer(
    { REQUEST_TIMEOUT_MS: '300', DATABASE_URL: await ownDatabaseUrl() },
    { pause: async (section) => (section === 'invoice_number' ? held : undefined) },
  );
  try {
    const c = await newClinic(slow);
    const billing = await billingFixture(slow, c);
    const body = {
      patient_id: await billing.patient(),
      line_items: [{ billable_item_id: billing.consultation, quantity: 1 }],
    };
    const answered = await request(slow, 'POST', '/invoices?patient_id=1', { host: c.host, key: c.key, body });
    expect([answered.status, answered.body.code]).toEqual([503, 'request_timeout']);
    release();
    const row = await vi.waitFor(
      async () => {
        await slow.app.requestLog.flush();
        const [found] = await slow.app.db.db
          .select()
          .from(requestLog)
          .where(eq(requestLog.request_id, String(answered.headers['x-request-id'])));
        if (!found) throw new Error('the work has not ended yet');
        return found;
      },
      { timeout: 10_000 },
    );
    expect(row).toMatchObject({
      account_id: c.account.id,
      method: 'POST',
      path: '/v3/api/invoices',
      query: 'patient_id=1',
      status: 503,
      error_code: 'request_timeout',
    });
  } finally {
    release();
    await slow.close();
  }
});

describe('walls and refusals', () => {
  test('another clinic’s requests are not listed, not found by id or request id, and its key filters to nothing', async () => {
    const mine = await newClinic(t.server);
    const theirs = await newClinic(t.server);
    const theirCall = await rest(theirs, 'GET', '/me');
    await rest(mine, 'GET', '/ping');
    await flush();
    const { portal: their } = await signedIn(t.server, theirs, 'admin');
    const theirRow = rows(await their.query('requests.list', {}))[0];
    expect(theirRow.request_id).toBe(theirCall.headers['x-request-id']);

    const { portal } = await signedIn(t.server, mine, 'admin');
    const listed = rows(await portal.query('requests.list', {}));
    expect(listed.map((r) => r.path)).toEqual(['/v3/api/ping']);
    expect(rows(await portal.query('requests.list', { request_id: theirRow.request_id }))).toEqual([]);
    expect(rows(await portal.query('requests.list', { key_id: theirRow.key!.id }))).toEqual([]);
    const res = await portal.query('requests.get', { id: theirRow.id });
    expect(res.status).toBe(404);
    expect(portalCode(res)).toBe('not_found');
  });

  test.each([
    [{ from: 'yesterday' }, 'from', 'Enter a date as YYYY-MM-DD'],
    [{ to: '2026-13-01' }, 'to', 'Enter a real date'],
    [{ from: '2026-02-30' }, 'from', 'Enter a real date'],
    [{ from: '2026-03-12', to: '2026-03-11' }, 'to', 'The end day is before the start day'],
    [{ method: 'BREW' }, 'method', ''],
    [{ status_class: '6xx' }, 'status_class', ''],
    [{ before: '42' }, 'before', 'Not a page of this log'],
    [{ request_id: 'x'.repeat(101) }, 'request_id', ''],
    [{ tenant: 1 }, '', ''],
  ])('%j is refused (422 validation_failed), naming %s', async (input, attribute, message) => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const res = await portal.query('requests.list', input);
    expect(res.status).toBe(422);
    expect(portalCode(res)).toBe('validation_failed');
    const { message: said, errors } = res.body.error.data ?? {};
    if (attribute) expect(JSON.stringify(errors ?? said)).toContain(attribute);
    expect(String(res.body.error.message)).toContain(message);
  });

  test('a member whose role cannot manage keys does not read the log', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'receptionist');
    expect(portalCode(await portal.query('requests.list', {}))).toBe('permission_denied');
    expect(portalCode(await portal.query('requests.get', { id: 1 }))).toBe('permission_denied');
  });
});

describe('every filter is served by an index led by account_id', () => {
  // Enough rows of the clinic for the planners' statistics to tell a lookup from a walk.
  beforeAll(async () => {
    for (let i = 0; i < 5000; i++)
      t.server.app.requestLog.add([
        t.clinic.account.id,
        null,
        'GET',
        `/v3/api/patients/${i}`,
        null,
        200,
        null,
        1,
        timeOrderedId(START + i),
        '127.0.0.1',
        new Date(START + i).toISOString(),
      ]);
    await flush();
  });

  /** The plan of the page statement for these filters (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN, scans and sorts discouraged). */
  async function plan(q: Omit<RequestQuery, 'limit'>): Promise<string> {
    const { db, statements } = recordingDb(t.server);
    await listRequests(db, t.clinic.account.id, 'America/New_York', { ...q, limit: 25 });
    const [s] = statements.filter((x) => x.sql.includes('from "request_log"'));
    return planOf(t.server, s, 'request_log');
  }
  /** Read through one of the log's indexes, bounded by the account (which one is the planner's choice). */
  const byAccount = (p: string) =>
    isPg
      ? /"Index Name":"request_log_[a-z_]+_idx","[^}]*"Index Cond":"[^"]*account_id = /.test(p)
      : /USING (COVERING )?INDEX request_log_[a-z_]+_idx \(account_id=\?/.test(p);
  const usesIndex = (p: string, index: string) =>
    isPg
      ? new RegExp(`"Index Name":"${index}","[^}]*"Index Cond":"[^"]*account_id = `).test(p)
      : new RegExp(`USING (COVERING )?INDEX ${index} \\(account_id=\\?`).test(p);
  const sorts = (p: string) =>
    isPg ? /"Node Type":"(Incremental )?Sort"/.test(p) : p.includes('USE TEMP B-TREE FOR ORDER BY');
  const cursor = '2026-03-10T12:00:00.000Z_100';

  test.each<[string, Omit<RequestQuery, 'limit'>, string]>([
    ['newest first', {}, 'request_log_account_time_idx'],
    ['a later page', { before: cursor }, 'request_log_account_time_idx'],
    ['days', { from: '2026-03-01', to: '2026-03-10', before: cursor }, 'request_log_account_time_idx'],
    [
      'status class, method and path',
      { statusClass: '4xx', method: 'GET', path: '/patients' },
      'request_log_account_time_idx',
    ],
    ['key', { keyId: 1, before: cursor }, 'request_log_key_time_idx'],
  ])('%s: read in order from %s, no sort', async (_name, q, index) => {
    const p = await plan(q);
    expect(usesIndex(p, index), p).toBe(true);
    expect(sorts(p), p).toBe(false);
  });

  // Both the key index and the time index serve it (the key's rows, or the account's days): the planner picks.
  test('key and days: read in order from an index led by account_id, no sort', async () => {
    const p = await plan({ keyId: 1, from: '2026-03-01', to: '2026-03-10' });
    expect(byAccount(p), p).toBe(true);
    expect(sorts(p), p).toBe(false);
  });

  test('a request answered more than ANSWERED_WITHIN_MS after its arrival is found by its day, not by its id', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const [late, prompt] = [timeOrderedId(START - 86_400_000), timeOrderedId(START - 86_400_000 + 1)];
    const answered = (ms: number) => new Date(START - 86_400_000 + ms).toISOString();
    t.server.app.requestLog.add([
      t.clinic.account.id,
      null,
      'GET',
      '/v3/api/slow',
      null,
      200,
      null,
      ANSWERED_WITHIN_MS + 1000,
      late,
      '127.0.0.1',
      answered(ANSWERED_WITHIN_MS + 1000),
    ]);
    t.server.app.requestLog.add([
      t.clinic.account.id,
      null,
      'GET',
      '/v3/api/prompt',
      null,
      200,
      null,
      ANSWERED_WITHIN_MS - 1000,
      prompt,
      '127.0.0.1',
      answered(ANSWERED_WITHIN_MS - 1000),
    ]);
    await flush();
    const ids = async (filters: object) =>
      (portalData(await portal.query('requests.list', filters)) as { data: { request_id: string }[] }).data.map(
        (r) => r.request_id,
      );
    expect(await ids({ request_id: prompt })).toEqual([prompt]);
    expect(await ids({ request_id: late })).toEqual([]);
    expect(await ids({ from: '2026-03-09', to: '2026-03-09' })).toEqual(expect.arrayContaining([late, prompt]));
  });

  test('request id: read from request_log_account_time_idx within minutes of the arrival its id carries', async () => {
    const p = await plan({ requestId: timeOrderedId(START + 10) });
    expect(usesIndex(p, 'request_log_account_time_idx'), p).toBe(true);
    expect(
      isPg
        ? /"Index Cond":"[^"]*created_at >= [^"]*created_at < /.test(p)
        : /INDEX request_log_account_time_idx \(account_id=\? AND created_at>\? AND created_at<\?\)/.test(p),
      p,
    ).toBe(true);
  });
});
