/**
 * The TypeScript client in clients/typescript, against a real server over HTTP with the clinic's Host:
 * list paging through the cursor iterator, creates with Idempotency-Keys (a replay is one row), a
 * booking from an availability slot, a 422 read by its code, a 429 retried after Retry-After (the
 * waits recorded by an injected sleep that moves the server's clock, so nothing really waits), and a
 * delivered webhook verified. Also: the committed generated types are what the document generates
 * now, and the example program compiles under --strict with no casts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClinicClient,
  paginate,
  WebhookVerificationError,
  type ClinicClient,
  type RetryOptions,
} from '../../clients/typescript/src';
import {
  book,
  createPatient,
  createWithBadEmail,
  firstFreeSlot,
  patientsNamed,
  receive,
} from '../../clients/typescript/examples/tour';
import { generateSchema, SCHEMA_FILE } from '../../clients/typescript/generate';
import { patients, webhookMessages } from '../../db/schema';
import { createEndpoint } from '../domain/webhooks';
import { WINDOW_MS } from '../rest/ratelimit';
import { newClinic, startServer, uniqueName, useClinic, type Clinic, type TestServer } from './helpers';
import { hostFetch } from './support/host-fetch';
import { root } from './support/spawn';

const t = useClinic({ seed: true });

interface Sent {
  method: string;
  url: URL;
  idempotencyKey: string | null;
  status: number;
  retryAfter: string | null;
}

/** A client of `clinic` on `server` whose every request (retries too) is logged. */
function clientOf(server: TestServer, clinic: Clinic, retry?: RetryOptions) {
  const sent: Sent[] = [];
  const send = hostFetch(server);
  const client = createClinicClient({
    baseUrl: `http://${clinic.host}/v3/api`,
    apiKey: clinic.key,
    retry,
    fetch: async (request) => {
      const response = await send(request);
      sent.push({
        method: request.method,
        url: new URL(request.url),
        idempotencyKey: request.headers.get('idempotency-key'),
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
      });
      return response;
    },
  });
  return { client, sent };
}

const firstId = (list: { id: number }[]) => {
  const [one] = list;
  if (!one) throw new Error('empty list');
  return one.id;
};

const rowsNamed = async (server: TestServer, clinic: Clinic, lastName: string) =>
  (
    await server.app.db.db
      .select({ n: count() })
      .from(patients)
      .where(and(eq(patients.account_id, clinic.account.id), eq(patients.last_name, lastName)))
  )[0].n;

describe('against the server', () => {
  let client: ClinicClient;
  let sent: Sent[];
  beforeAll(() => void ({ client, sent } = clientOf(t.server, t.clinic)));

  it('lists every record through the cursor iterator, one request per page, the filters kept on each', async () => {
    const lastName = uniqueName('Paged');
    const made: number[] = [];
    for (let i = 0; i < 7; i++)
      made.push((await createPatient(client, { first_name: `P${i}`, last_name: lastName })).patient.id);
    const before = sent.length;
    const found = await patientsNamed(client, lastName, 3);
    expect(found.map((p) => p.id)).toEqual(made);
    expect(found.map((p) => p.last_name)).toEqual(made.map(() => lastName));
    const pages = sent.slice(before);
    expect(pages.map((s) => `${s.method} ${s.url.pathname} ${s.status}`)).toEqual(
      Array(3).fill('GET /v3/api/patients 200'),
    );
    expect(pages.map((s) => s.url.searchParams.get('last_name'))).toEqual(Array(3).fill(`eq:${lastName}`));
    expect(pages.map((s) => s.url.searchParams.get('page_size'))).toEqual(['3', '3', '3']);
    // Keyset paging: an empty cursor first, then each page's links.next token.
    const cursors = pages.map((s) => s.url.searchParams.get('cursor'));
    expect(cursors[0]).toBe('');
    expect(cursors.slice(1).every((c) => typeof c === 'string' && c.length > 0)).toBe(true);
    expect(new Set(cursors).size).toBe(3);
  });

  it('a refused page is thrown as a ClinicApiError with the code', async () => {
    const iterate = async () => {
      for await (const patient of paginate(client, '/patients', { query: { page_size: 1000 } })) void patient;
    };
    await expect(iterate()).rejects.toMatchObject({ name: 'ClinicApiError', status: 422, code: 'validation_failed' });
  });

  it('sends a fresh Idempotency-Key with each create; one chosen by the caller is replayed: the same patient, one row', async () => {
    const lastName = uniqueName('Idem');
    const start = sent.length;
    await createPatient(client, { first_name: 'One', last_name: lastName });
    await createPatient(client, { first_name: 'Two', last_name: lastName });
    const keys = sent.slice(start).map((s) => s.idempotencyKey);
    expect(keys).toHaveLength(2);
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(await rowsNamed(t.server, t.clinic, lastName)).toBe(2);
    // Other writes carry one too (the server honours it on POST today; elsewhere it is ignored, harmlessly).
    const patched = await client.PATCH('/patients/{id}', {
      params: { path: { id: firstId(await patientsNamed(client, lastName, 10)) } },
      body: { note: 'keyed' },
    });
    expect(patched.data?.data.note).toBe('keyed');
    expect(sent.at(-1)).toMatchObject({
      method: 'PATCH',
      status: 200,
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    const replayName = uniqueName('Replay');
    const key = randomUUID();
    const first = await createPatient(client, { first_name: 'Ada', last_name: replayName }, key);
    const again = await createPatient(client, { first_name: 'Ada', last_name: replayName }, key);
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.patient).toEqual(first.patient);
    expect(sent.slice(-2).map((s) => [s.idempotencyKey, s.status])).toEqual([
      [key, 201],
      [key, 201],
    ]);
    expect(await rowsNamed(t.server, t.clinic, replayName)).toBe(1);
  });

  it('books an appointment from a free availability slot; the same slot again is 409 slot_unavailable', async () => {
    const { patient } = await createPatient(client, { first_name: 'Grace', last_name: uniqueName('Booked') });
    const slot = await firstFreeSlot(client);
    const booking = await book(client, patient.id, slot);
    if (!('booked' in booking)) throw new Error(`not booked: ${JSON.stringify(booking)}`);
    expect(booking.booked).toMatchObject({
      patient_id: patient.id,
      practitioner_id: slot.practitioner_id,
      location_id: slot.location_id,
      appointment_type_id: slot.appointment_type_id,
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      status: 'booked',
    });
    const stored = await t.api.get(`/appointments/${booking.booked.id}`);
    expect(stored.body.data).toMatchObject({ patient_id: patient.id, starts_at: slot.starts_at });
    const { patient: other } = await createPatient(client, { first_name: 'Alan', last_name: uniqueName('Late') });
    expect(await book(client, other.id, slot)).toEqual({ refused: { status: 409, code: 'slot_unavailable' } });
  });

  it('a 422 is a value: its code and the attributes it names, nothing created, not retried', async () => {
    const lastName = uniqueName('Refused');
    const start = sent.length;
    const refused = await createWithBadEmail(client, lastName);
    expect(refused).toMatchObject({ status: 422, code: 'validation_failed', fields: ['email'] });
    expect(refused.message).not.toBe('');
    expect(sent.slice(start).map((s) => s.status)).toEqual([422]);
    expect(await rowsNamed(t.server, t.clinic, lastName)).toBe(0);
  });
});

describe('429: retried after Retry-After', () => {
  // A server with a budget of 3 a minute on a clock the test holds, half a second before a window ends
  // (so Retry-After is 1). The injected sleep records each wait and moves that clock instead of waiting.
  let clock = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS - 500;
  let server: TestServer;
  let clinic: Clinic;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_REST_PER_MINUTE: '3' }, { now: () => clock });
    clinic = await newClinic(server);
  });
  afterAll(() => server?.close());

  it('waits as the header asks, sends the same request with the same Idempotency-Key, and succeeds: one row', async () => {
    const waits: number[] = [];
    const { client, sent } = clientOf(server, clinic, { sleep: async (ms) => void (waits.push(ms), (clock += ms)) });
    for (let i = 0; i < 3; i++) expect((await client.GET('/me')).response.status).toBe(200);
    const lastName = uniqueName('Limited');
    const { patient } = await createPatient(client, { first_name: 'Ada', last_name: lastName });
    expect(patient.last_name).toBe(lastName);
    const posts = sent.filter((s) => s.method === 'POST');
    expect(posts.map((s) => [s.status, s.retryAfter])).toEqual([
      [429, '1'],
      [201, null],
    ]);
    expect(posts[0].idempotencyKey).toBeTruthy();
    expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
    expect(waits).toEqual([1000]);
    expect(await rowsNamed(server, clinic, lastName)).toBe(1);
  });

  it('gives up after maxAttempts, and at once when Retry-After is beyond maxDelayMs, returning the 429 typed', async () => {
    // Now early in a window: Retry-After is 60. Use up its budget.
    const plain = clientOf(server, clinic, { maxAttempts: 1 });
    for (let i = 0; i < 4 && (await plain.client.GET('/me')).response.status !== 429; i++);
    expect(plain.sent.at(-1)?.status).toBe(429);
    const capped = clientOf(server, clinic, {
      maxDelayMs: 10_000,
      sleep: async () => expect.fail('no wait beyond maxDelayMs'),
    });
    const refused = await capped.client.GET('/me');
    expect(refused.response.headers.get('retry-after')).toBe('60');
    expect(refused.error?.code).toBe('rate_limited');
    expect(capped.sent).toHaveLength(1);
    // Waits that do not move the clock: still limited after the third attempt.
    const waits: number[] = [];
    const patient = clientOf(server, clinic, { maxAttempts: 3, sleep: async (ms) => void waits.push(ms) });
    const still = await patient.client.GET('/me');
    expect(still.error?.code).toBe('rate_limited');
    expect(patient.sent.map((s) => s.status)).toEqual([429, 429, 429]);
    expect(waits).toEqual([60_000, 60_000]);
  });
});

describe('retry policy, with a fetch that answers as the test says', () => {
  /** A client over a fetch that answers each call from `answers` in turn, and records what it was sent. */
  function scripted(
    answers: [number, Record<string, string>?, unknown?][],
    retry: RetryOptions = {},
    idempotencyKeys = true,
  ) {
    const calls: { method: string; key: string | null }[] = [];
    const waits: number[] = [];
    const client = createClinicClient({
      baseUrl: 'https://demo.neptune.example.com/v3/api',
      apiKey: 'cpk_test',
      idempotencyKeys,
      retry: { sleep: async (ms) => void waits.push(ms), ...retry },
      fetch: async (request) => {
        calls.push({ method: request.method, key: request.headers.get('idempotency-key') });
        const [status, headers, body] = answers[calls.length - 1] ?? [500];
        return new Response(
          JSON.stringify(body ?? { message: 'x', code: status === 429 ? 'rate_limited' : 'request_timeout' }),
          { status, headers: { 'content-type': 'application/json', ...headers } },
        );
      },
    });
    return { client, calls, waits };
  }
  const ok: [number, Record<string, string>, unknown] = [200, {}, { data: { pong: true } }];

  it('a 503 with no Retry-After waits 1 s, then 2 s; an HTTP-date Retry-After is read as a date', async () => {
    const backoff = scripted([[503], [503], ok], { maxAttempts: 3 });
    expect((await backoff.client.GET('/ping')).response.status).toBe(200);
    expect(backoff.waits).toEqual([1000, 2000]);
    const dated = scripted([[429, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }], ok]);
    expect((await dated.client.GET('/ping')).response.status).toBe(200);
    expect(dated.waits[0]).toBeGreaterThan(28_000);
    expect(dated.waits[0]).toBeLessThanOrEqual(30_000);
  });

  it('a write without an Idempotency-Key is retried after a 429 only; with one, after a 503 and a 409 idempotency_key_in_flight too', async () => {
    const body = { first_name: 'Ada', last_name: 'Lovelace' };
    const bare = scripted([[503], ok], {}, false);
    expect((await bare.client.POST('/patients', { body })).response.status).toBe(503);
    expect(bare.calls).toEqual([{ method: 'POST', key: null }]);
    const limited = scripted([[429, { 'retry-after': '2' }], ok], {}, false);
    expect((await limited.client.POST('/patients', { body })).response.status).toBe(200);
    expect(limited.waits).toEqual([2000]);
    const keyed = scripted([[503], [409, {}, { message: 'busy', code: 'idempotency_key_in_flight' }], ok]);
    expect((await keyed.client.POST('/patients', { body })).response.status).toBe(200);
    expect(keyed.calls).toHaveLength(3);
    expect(new Set(keyed.calls.map((c) => c.key)).size).toBe(1);
    const conflict = scripted([[409, {}, { message: 'taken', code: 'slot_unavailable' }], ok]);
    expect((await conflict.client.POST('/patients', { body })).error?.code).toBe('slot_unavailable');
    expect(conflict.calls).toHaveLength(1);
  });

  it('a caller-chosen key is kept; retry: false sends once', async () => {
    const mine = scripted([[429, { 'retry-after': '1' }], ok]);
    await mine.client.PATCH('/patients/{id}', {
      params: { path: { id: 1 } },
      body: { note: 'x' },
      headers: { 'Idempotency-Key': 'mine-1' },
    });
    expect(mine.calls).toEqual([
      { method: 'PATCH', key: 'mine-1' },
      { method: 'PATCH', key: 'mine-1' },
    ]);
    const once = createClinicClient({
      baseUrl: 'https://x.example/v3/api',
      apiKey: 'k',
      retry: false,
      fetch: async () => new Response('{}', { status: 429, headers: { 'retry-after': '1' } }),
    });
    expect((await once.GET('/ping')).response.status).toBe(429);
  });

  it('an abort during the wait ends it at once with the abort reason', async () => {
    const controller = new AbortController();
    let calls = 0;
    const client = createClinicClient({
      baseUrl: 'https://x.example/v3/api',
      apiKey: 'k',
      fetch: async () => {
        calls++;
        // Aborted once the client has begun waiting its 600 s.
        setImmediate(() => controller.abort(new Error('caller gave up')));
        return new Response('{"message":"slow down","code":"rate_limited"}', {
          status: 429,
          headers: { 'retry-after': '600', 'content-type': 'application/json' },
        });
      },
      retry: { maxDelayMs: 3_600_000 },
    });
    await expect(client.GET('/ping', { signal: controller.signal })).rejects.toThrow('caller gave up');
    expect(calls).toBe(1);
  });
});

describe('webhooks', () => {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.end('ok');
    });
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const address = receiver.address();
    if (address === null || typeof address === 'string') throw new Error('the receiver listens on a TCP port');
    url = `http://127.0.0.1:${address.port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it('a delivery verifies with verifyWebhook and reads as a typed event; a changed body does not verify', async () => {
    const clinic = await newClinic(t.server);
    const { endpoint, secret } = await createEndpoint(
      t.server.app.db,
      clinic.account,
      { actor_type: 'system', actor_id: null, actor_name: 'test' },
      { url, events: 'all' },
      true,
    );
    const { patient } = await createPatient(clientOf(t.server, clinic).client, {
      first_name: 'Ada',
      last_name: 'Hook',
    });
    // This endpoint's messages only, through the worker's own send (a drain would take other files' messages too).
    for (const message of await t.server.app.db.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.endpoint_id, endpoint.id)))
      await t.server.app.webhooks.deliver(message, 'scheduled');
    const verified = received.map((r) => ({
      ...receive(secret, r.body, r.headers),
      webhookId: r.headers['webhook-id'],
    }));
    const created = verified.find((v) => v.patientCreated === patient.id);
    expect(created?.event).toMatchObject({ type: 'patients.created', data: { entity: 'patients', id: patient.id } });
    expect(created?.event.id).toBe(created?.webhookId);
    const tampered = received[0].body.replace(/"id":\d+/, '"id":1');
    expect(() => receive(secret, tampered, received[0].headers)).toThrow(WebhookVerificationError);
    expect(() =>
      receive(`whsec_${Buffer.alloc(24).toString('base64')}`, received[0].body, received[0].headers),
    ).toThrow(WebhookVerificationError);
  });
});

describe('the package', () => {
  it(
    'the committed src/schema.d.ts is what the OpenAPI document generates now (run `npx tsx clients/typescript/generate.ts`)',
    { timeout: 60_000 },
    async () => {
      expect(
        fs.readFileSync(SCHEMA_FILE, 'utf8') === (await generateSchema()),
        'clients/typescript/src/schema.d.ts is stale: run npx tsx clients/typescript/generate.ts',
      ).toBe(true);
    },
  );

  it(
    'compiles with its own strict tsconfig (no Node types), and the example and this test hold no casts (as, <T>, satisfies, !)',
    { timeout: 60_000 },
    () => {
      const dir = path.join(root, 'clients', 'typescript');
      const config = ts.getParsedCommandLineOfConfigFile(
        path.join(dir, 'tsconfig.json'),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) },
      );
      if (!config) throw new Error('clients/typescript/tsconfig.json does not parse');
      expect(config.options.strict).toBe(true);
      const program = ts.createProgram(config.fileNames, config.options);
      expect(
        ts
          .getPreEmitDiagnostics(program)
          .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
      ).toEqual([]);
      expect(config.fileNames.some((f) => f.endsWith('examples/tour.ts'))).toBe(true);
      for (const file of [path.join(dir, 'examples', 'tour.ts'), __filename]) {
        const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
        const casts: string[] = [];
        const visit = (node: ts.Node) => {
          if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isSatisfiesExpression(node))
            casts.push(node.getText());
          if (ts.isNonNullExpression(node)) casts.push(node.getText());
          ts.forEachChild(node, visit);
        };
        visit(source);
        expect(casts, path.relative(root, file)).toEqual([]);
      }
    },
  );

  it(
    'and tells a caller who gets a type wrong: a path that does not page, a filter of the wrong type, an event type that does not exist',
    { timeout: 60_000 },
    () => {
      const dir = path.join(root, 'node_modules', '.cache', `client-typescript-${process.pid}`);
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, 'wrong.ts');
      const src = path.join(root, 'clients', 'typescript', 'src');
      fs.writeFileSync(
        file,
        `import { createClinicClient, isEventType, paginate, verifyWebhook } from ${JSON.stringify(src)};
const client = createClinicClient({ baseUrl: 'https://demo.neptune.example.com/v3/api', apiKey: 'k' });
export const a = paginate(client, '/availability');
export const b = paginate(client, '/patients', { query: { page_size: '3' } });
const event = verifyWebhook('whsec_x', '{}', {});
export const c = isEventType(event, 'patients.exploded');
`,
      );
      try {
        const program = ts.createProgram([file], {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          skipLibCheck: true,
          types: [],
          lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        });
        const errors = ts
          .getPreEmitDiagnostics(program)
          .map(
            (d) =>
              `${d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
          );
        expect(errors.filter((e) => e.startsWith('2: ')).join('\n')).toMatch(/'"\/availability"' is not assignable/);
        expect(errors.filter((e) => e.startsWith('3: ')).join('\n')).toMatch(
          /'string' is not assignable to type 'number'/,
        );
        expect(errors.filter((e) => e.startsWith('5: ')).join('\n')).toMatch(/'"patients.exploded"' is not assignable/);
        expect(errors).toHaveLength(3);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
