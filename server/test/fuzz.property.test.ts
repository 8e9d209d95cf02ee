/**
 * Schema-driven fuzzing of every route. Inputs are drawn from each route's own input schema (as JSON
 * Schema), valid and mutated: wrong types, missing fields, extra keys (prototype names among them),
 * huge, empty and odd strings (NUL and lone surrogates among them), dates outside the calendar, boundary numbers, duplicated list entries, odd path
 * parameters, bodies of another content type. The portal's procedures get the same treatment over their
 * transport, signed in as the owner. For every request: no 5xx; every error is `{ message, code, errors? }` with the spec's status for its code; and a
 * refused request changes no row. FUZZ_RUNS (default 12) sets the cases per route; FUZZ_SEED the seed.
 */
import fc from 'fast-check';
import type { AnyProcedure } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { and, count, eq } from 'drizzle-orm';
import { appointments, auditLog, events, files, invoices, patients, payments } from '../../db/schema';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import { RouteTable, type Route } from '../rest/routes';
import { appRouter } from '../routers';
import { portalRouter } from '../routers/portal';
import { client, multipart, newClinic, request, startServer, type Clinic, type Res, type TestServer } from './helpers';
import { signedIn, type PortalClient } from './support/portal';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);

type Json = { [k: string]: unknown };
type JsonSchema = Json & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** Values a JSON Schema (as zod writes it) accepts, kept small. */
function valid(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => valid(a, depth)));
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern));
      return fc.string({ minLength: Number(s.minLength ?? 0), maxLength: Math.min(Number(s.maxLength ?? 24), 24) });
    case 'integer':
      // Mostly small values (ids that exist), sometimes the edges of the 32-bit columns, of the ids (2^53 − 1) and beyond.
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.integer({
            min: Math.max(Number(s.minimum ?? -5), -5),
            max: Math.min(Number(s.maximum ?? 50), 50),
          }),
        },
        { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53) },
      );
    case 'number':
      return fc.double({ min: -5, max: 50, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valid(s.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const props = s.properties ?? {};
      if (Object.keys(props).length === 0)
        return fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }),
          fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean()),
          { maxKeys: 3 },
        );
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valid(v, depth + 1)])), {
        requiredKeys: (s.required ?? []).filter((k) => k in props),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const ODD_VALUES: unknown[] = [
  '',
  ' ',
  'x'.repeat(256),
  'x'.repeat(70_000),
  '\u0000',
  '😀'.repeat(200),
  'Ω≈ç√∫˜µ≤',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  0,
  -1,
  -0,
  2 ** 31,
  2 ** 53 + 1,
  1e308,
  -1e308,
  0.5,
  true,
  null,
  [],
  {},
  [1, 1],
  '2027-02-30',
  '2027-01-01T09:00:00Z',
  '\udfff',
  'a\ud800b',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '9999-12-31',
  '9999-12-31T23:59:59Z',
  '+010000-01-01',
  '2026-13-45T99:99:99.999Z',
];
const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'id',
  'account_id',
  'unknown_field',
  'k\udfff',
];

/** A body: one drawn from the schema, then possibly mutated. `__proto__` goes in as raw JSON text. */
function bodies(schema: JsonSchema): fc.Arbitrary<string> {
  const base = valid(schema) as fc.Arbitrary<Json>;
  const mutation = fc.oneof(
    fc.constant({ kind: 'none' as const }),
    fc.record({ kind: fc.constant('drop' as const), n: fc.nat() }),
    fc.record({ kind: fc.constant('odd' as const), n: fc.nat(), value: fc.constantFrom(...ODD_VALUES) }),
    fc.record({
      kind: fc.constant('extra' as const),
      key: fc.constantFrom(...EXTRA_KEYS),
      value: fc.constantFrom(...ODD_VALUES),
    }),
    fc.record({ kind: fc.constant('dup' as const), n: fc.nat() }),
  );
  return fc.tuple(base, mutation).map(([body, m]) => {
    const out: Json = { ...body };
    const keys = Object.keys(out);
    const pick = (n: number) => keys[n % Math.max(keys.length, 1)];
    if (m.kind === 'drop' && keys.length) delete out[pick(m.n)];
    if (m.kind === 'odd') out[pick(m.n) ?? 'x'] = m.value;
    if (m.kind === 'dup')
      for (const [k, v] of Object.entries(out)) if (Array.isArray(v) && v.length) out[k] = [...v, v[m.n % v.length]];
    const text = JSON.stringify(out);
    if (m.kind === 'extra')
      return text.replace(/^\{/, `{${JSON.stringify(m.key)}:${JSON.stringify(m.value)}${text === '{}' ? '' : ','}`);
    return text;
  });
}

/** A query string from a query schema: drawn values, sometimes odd ones, sometimes unknown parameters. */
function queries(schema: JsonSchema): fc.Arbitrary<string> {
  const names = Object.keys(schema.properties ?? {});
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      'eq:1',
      'gt:0',
      'in:1,2',
      'between:1,5',
      'null',
      'not-null',
      'contains:a',
      'like:%a%',
      'ne:',
      'true',
      'false',
      '2027-01-01',
      'asc',
      'id:desc',
      '-1',
      '101',
      '0',
      'abc.def',
      'contains:a\u0000bc',
      '\u0000',
      'gt:0000-01-01',
      'gt:0000-01-01T00:00:00Z',
      'lt:9999-12-31T23:59:59Z',
      '9999-12-31',
      '2026-13-45T99:99:99.999Z_1',
    ),
  );
  const param = fc.tuple(
    fc.oneof(
      fc.constantFrom(...(names.length ? names : ['x'])),
      fc.constantFrom('metadata[k]', 'nope', 'constructor', 'page', 'page_size', 'sort', 'cursor'),
    ),
    value,
  );
  return fc
    .array(param, { maxLength: 4 })
    .map((ps) =>
      ps.length ? '?' + ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&') : '',
    );
}

const table = new RouteTable(appRouter);
let server: TestServer;
let clinic: Clinic;
let other: Clinic;
const ownIds = new Map<string, number>();
let cases = 0;

function schemaOf(route: Route): JsonSchema {
  const input = (route.procedure as unknown as { _def: { inputs: z.ZodType[] } })._def.inputs[0];
  return input ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : {};
}

/** What a refused request must leave alone. */
async function footprint(): Promise<number[]> {
  const { db } = server.app.db;
  const acc = clinic.account.id;
  const counted = [auditLog, events, patients, appointments, invoices, payments, files] as const;
  return Promise.all(
    counted.map(async (t) =>
      Number(
        (
          await db
            .select({ n: count() })
            .from(t)
            .where(and(eq(t.account_id, acc)))
        )[0].n,
      ),
    ),
  );
}

function checkAnswer(route: Route, res: Res, sent: string) {
  const where = `${route.method} ${route.path} ← ${sent.slice(0, 300)}\n→ ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  if (res.status < 400) return;
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const { message, code, errors, ...rest } = res.body ?? {};
  expect(rest, where).toEqual({});
  expect(typeof message, where).toBe('string');
  expect(Object.hasOwn(ERROR_STATUS, code), where).toBe(true);
  const allowed = code === 'billing_rule' ? [409, 422] : [ERROR_STATUS[code as ErrorCode]];
  expect(allowed, where).toContain(res.status);
  if (errors !== undefined) {
    expect(typeof errors, where).toBe('object');
    for (const v of Object.values(errors as Json))
      expect(Array.isArray(v) && v.every((m) => typeof m === 'string'), where).toBe(true);
  }
}

beforeAll(async () => {
  server = await startServer();
  [clinic, other] = await Promise.all([
    newClinic(server, { seed: true }),
    newClinic(server, { seed: true, region: 'mercury' }),
  ]);
  const api = client(server, clinic);
  for (const route of table.routes) {
    const collection = route.path.split('/')[1];
    if (!route.path.includes('{id}') || ownIds.has(collection)) continue;
    const first = (await api.get(`/${collection}?page_size=1&sort=id:desc`)).body?.data?.[0]?.id;
    if (typeof first === 'number') ownIds.set(collection, first);
  }
}, 120_000);
afterAll(async () => {
  console.log(`fuzz: ${cases} requests over ${table.routes.length} routes (FUZZ_RUNS=${RUNS}, seed ${SEED})`);
  await server.close();
});

it.each(table.routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
  '%s: fuzzed input never 5xx, errors well-formed, refusals write nothing',
  async (_name, route) => {
    const schema = schemaOf(route);
    const collection = route.path.split('/')[1];
    const idArb = fc.constantFrom<string>(
      String(ownIds.get(collection) ?? 1),
      '0',
      '-1',
      '999999999',
      '2147483648',
      '9007199254740991',
      '9007199254740992',
      'abc',
      '1.5',
      '%20',
      '1e3',
    );
    const resourceArb = fc.constantFrom('patients', 'nope', 'constructor', '__proto__', 'availability');
    const keyArb = fc.constantFrom<'own' | 'read_only' | 'other'>('own', 'own', 'own', 'own', 'read_only', 'other');
    // Mostly JSON; sometimes a body type the route does not take (415, never a 500).
    const typeArb = fc.constantFrom(
      'application/json',
      'application/json',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
    );
    const inputArb = route.multipart
      ? fc.record({
          fields: fc.dictionary(
            fc.constantFrom(
              'patient_id',
              'file_type',
              'description',
              'patient_viewable',
              'patient_log_id',
              'constructor',
              'x',
            ),
            fc.constantFrom('1', '', 'generic', 'patient_log', 'true', 'x'.repeat(300), '-1'),
          ),
          withFile: fc.boolean(),
        })
      : route.method === 'GET' || route.method === 'DELETE'
        ? queries(schema)
        : bodies(schema);

    await fc.assert(
      fc.asyncProperty(idArb, resourceArb, keyArb, inputArb, typeArb, async (id, resource, who, input, type) => {
        cases++;
        const path = route.path.replace('{id}', id).replace('{resource}', resource);
        const key = who === 'own' ? clinic.key : who === 'read_only' ? clinic.readOnlyKey : other.key;
        const before = await footprint();
        let res: Res;
        let sent: string;
        if (typeof input === 'string' && (route.method === 'GET' || route.method === 'DELETE')) {
          sent = path + input;
          res = await request(server, route.method, sent, { host: clinic.host, key });
        } else if (typeof input === 'string') {
          sent = `${type} ${input}`;
          res = await request(server, route.method, path, {
            host: clinic.host,
            key,
            raw: input,
            headers: { 'content-type': type },
          });
        } else {
          const { fields, withFile } = input as { fields: Record<string, string>; withFile: boolean };
          sent = JSON.stringify(fields);
          res = await request(server, route.method, path, {
            host: clinic.host,
            key,
            ...multipart(
              fields,
              withFile ? { name: 'f.txt', type: 'text/plain', bytes: Buffer.from('fuzz') } : undefined,
            ),
          });
        }
        checkAnswer(route, res, `${path} ${sent}`);
        if (res.status >= 400)
          expect(
            await footprint(),
            `${route.method} ${path} ${sent.slice(0, 200)} → ${res.status} changed rows`,
          ).toEqual(before);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  },
);

/** The portal's procedures over /developers/trpc, fuzzed the same way (session calls aside: they end the session). */
describe('portal procedures', () => {
  const procedures = Object.entries(portalRouter._def.procedures)
    .filter(([path]) => !path.startsWith('session.'))
    .map(([path, p]) => {
      const def = (p as unknown as AnyProcedure)._def;
      const input = (def as unknown as { inputs: z.ZodType[] }).inputs[0];
      return {
        path,
        type: def.type,
        schema: input ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : {},
      };
    });
  let owner: PortalClient;
  beforeAll(async () => {
    owner = (await signedIn(server, clinic, 'owner')).portal;
  });

  it.each(procedures.map((p) => [p.path, p] as const))(
    '%s: fuzzed input never 5xx, errors in the API shape',
    async (_name, proc) => {
      const typeArb = fc.constantFrom(
        'application/json',
        'application/json',
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
      );
      await fc.assert(
        fc.asyncProperty(bodies(proc.schema), typeArb, async (body, type) => {
          cases++;
          const res =
            proc.type === 'query'
              ? await request(server, 'GET', `/developers/trpc/${proc.path}?input=${encodeURIComponent(body)}`, {
                  host: clinic.host,
                  headers: { cookie: owner.cookie },
                })
              : await request(server, 'POST', `/developers/trpc/${proc.path}`, {
                  host: clinic.host,
                  raw: body,
                  headers: { 'content-type': type, origin: `http://${clinic.host}`, cookie: owner.cookie },
                });
          const where = `${proc.path} ← ${type} ${body.slice(0, 300)}\n→ ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          if (res.status < 400) return;
          // tRPC's envelope, or the plain API error of an answer given before the portal (431 for a huge URL).
          const code = res.body?.error?.data?.code ?? res.body?.code;
          expect(Object.hasOwn(ERROR_STATUS, code) || ['csrf_failed'].includes(code), where).toBe(true);
          expect(res.status, where).toBe(ERROR_STATUS[code as ErrorCode]);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
  );
});
