/**
 * The OpenAPI document as integrators use it: the served document passes Spectral's `oas` ruleset with
 * no error and no warning; a client generated from it with openapi-typescript typechecks a small
 * openapi-fetch program (named models, list paging with filters, a get, a create, an error branch that
 * meets a code newer than the client, an action without a body) with no casts; and what openapi-fetch
 * sends for the documented parameters is what the server reads.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createQuerySerializer } from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, expect, it } from 'vitest';
import { useClinic } from './helpers';
import { root } from './support/spawn';

// Inside the repository, so the client program resolves openapi-fetch from node_modules.
const dir = path.join(root, 'node_modules', '.cache', `openapi-client-${process.pid}`);
const t = useClinic({ seed: true });
let served: string;

beforeAll(async () => {
  const res = await t.api.get('/openapi.json', { key: null });
  expect(res.status).toBe(200);
  served = res.text;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'openapi.json'), served);
  fs.writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

it('passes the Spectral oas ruleset with no errors and no warnings', { timeout: 60_000 }, async () => {
  const spectral = path.join(root, 'node_modules', '.bin', 'spectral');
  const run = await promisify(execFile)(
    spectral,
    [
      'lint',
      path.join(dir, 'openapi.json'),
      '--ruleset',
      path.join(dir, '.spectral.yaml'),
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
    ],
    {
      cwd: dir,
    },
  ).catch((err: { stdout: string }) => err);
  const results = JSON.parse(run.stdout || '[]') as {
    code: string;
    message: string;
    path: string[];
    severity: number;
  }[];
  expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
});

it(
  'generates a typed client whose program typechecks with the named models and no casts',
  { timeout: 60_000 },
  async () => {
    fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(served)));
    fs.writeFileSync(
      path.join(dir, 'client.ts'),
      `import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type Patient = components['schemas']['Patient'];
type PatientList = components['schemas']['PatientList'];
type ApiError = components['schemas']['ApiError'];

const api = createClient<paths>({ baseUrl: 'https://demo.neptune.example.com/v3/api', headers: { Authorization: 'Bearer cpk_example' } });
const fullName = (p: Patient): string => p.first_name + ' ' + p.last_name;

export async function program(): Promise<string[]> {
  const names: string[] = [];
  let page = 1;
  for (;;) {
    const query = { page, page_size: 50, last_name: ['eq:Lovelace'], id: ['gt:1', 'lt:10'], sort: 'last_name:desc,id', metadata: { vip: 'eq:true' } };
    const { data, error } = await api.GET('/patients', { params: { query } });
    if (error) {
      const problem: ApiError = error;
      names.push(problem.code);
      break;
    }
    const list: PatientList = data;
    names.push(...list.data.map(fullName));
    if (!list.links.next) break;
    page++;
  }
  const one = await api.GET('/patients/{id}', { params: { path: { id: 1 } } });
  const dob: string | null | undefined = one.data?.data.dob;
  const created = await api.POST('/patients', { body: { first_name: 'Ada', last_name: 'Lovelace', numbers: [{ number: '07700 900123', type: 'mobile' }] }, headers: { 'Idempotency-Key': 'abc' } });
  if (created.error) {
    const code: ApiError['code'] = created.error.code;
    // A code newer than this client compiles: the enumeration is open.
    if (code === 'patient_archived' || code === 'validation_failed') names.push(code);
    names.push(...(created.error.errors?.first_name ?? []));
  } else {
    const id: number = created.data.data.id;
    names.push(String(id), String(dob));
  }
  const cancelled = await api.POST('/appointments/{id}/cancel', { params: { path: { id: 1 } } });
  const voided = await api.DELETE('/invoices/{id}', { params: { path: { id: 1 }, query: { void_payments: true } } });
  const events = await api.GET('/events', { params: { query: { type: ['in:patients.created,patients.updated'] } } });
  for (const e of events.data?.data ?? []) if (e.type === 'patients.merged') names.push(e.type);
  names.push(cancelled.data?.data.status ?? '', String(voided.response.status));
  return names;
}
`,
    );
    // And a client that gets a type wrong is told so: page_size is an integer, last_name is required.
    fs.writeFileSync(
      path.join(dir, 'wrong.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './api';
const api = createClient<paths>({ baseUrl: 'https://demo.neptune.example.com/v3/api' });
export const a = api.GET('/patients', { params: { query: { page_size: '50' } } });
export const b = api.POST('/patients', { body: { first_name: 'A' } });
`,
    );
    expect(typecheck('client.ts')).toEqual([]);
    const wrong = typecheck('wrong.ts').join('\n');
    expect(wrong).toMatch(/'string' is not assignable to type 'number'/);
    expect(wrong).toMatch(/last_name/);
  },
);

type Parameter = { name: string; style?: string; explode?: boolean; schema: { type?: string } };
const operation = (path: string, method: string) =>
  (
    JSON.parse(served) as {
      paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { required: boolean } }>>;
    }
  ).paths[path][method];

it("filters are repeated parameters and metadata a deepObject, as openapi-fetch's serializer sends them and the server reads them", async () => {
  // The styles openapi-fetch applies by default (and other generators follow from the document).
  const parameters = operation('/patients', 'get').parameters!;
  expect(parameters.find((p) => p.name === 'id')).toMatchObject({
    style: 'form',
    explode: true,
    schema: { type: 'array' },
  });
  expect(parameters.find((p) => p.name === 'metadata')).toMatchObject({
    style: 'deepObject',
    explode: true,
    schema: { type: 'object' },
  });
  const serialize = createQuerySerializer();
  const made: number[] = [];
  for (const vip of [true, false, true])
    made.push(
      (await t.api.post('/patients', { body: { first_name: 'Query', last_name: 'Serialized', metadata: { vip } } }))
        .body.data.id,
    );
  const query = serialize({
    id: [`gte:${made[0]}`, `lte:${made[2]}`],
    last_name: ['eq:Serialized'],
    metadata: { vip: 'eq:true' },
  });
  expect(decodeURIComponent(query)).toBe(
    `id=gte:${made[0]}&id=lte:${made[2]}&last_name=eq:Serialized&metadata[vip]=eq:true`,
  );
  const res = await t.api.get(`/patients?${query}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.map((p: { id: number }) => p.id)).toEqual([made[0], made[2]]);
  expect(decodeURIComponent(serialize({ id: ['gt:1', 'lt:10'] }))).toBe('id=gt:1&id=lt:10');
});

it('the documented optional bodies and boolean flags are what the server takes: cancel with no body, void_payments=true', async () => {
  expect(operation('/appointments/{id}/cancel', 'post').requestBody!.required).toBe(false);
  expect(operation('/invoices/{id}', 'delete').parameters!.find((p) => p.name === 'void_payments')!.schema).toEqual({
    type: 'boolean',
  });
  const serialize = createQuerySerializer();
  const appointment = (await t.api.get('/appointments?status=booked&page_size=1&sort=id')).body.data[0];
  const cancelled = await t.api.post(`/appointments/${appointment.id}/cancel`);
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body.data.status).toBe('cancelled');
  const invoice = await t.api.post('/invoices', {
    body: {
      patient_id: appointment.patient_id,
      line_items: [{ billable_item_id: (await t.api.get('/billable_items?active=true')).body.data[0].id, quantity: 1 }],
    },
  });
  const voided = await t.api.delete(`/invoices/${invoice.body.data.id}?${serialize({ void_payments: true })}`);
  expect(voided.status, voided.text).toBe(204);
});

function typecheck(file: string): string[] {
  const program = ts.createProgram([path.join(dir, file)], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
