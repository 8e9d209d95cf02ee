/**
 * The OpenAPI document through the generators integrators use: hey-api, orval and openapi-typescript each
 * generate a client from the served document (support/generated-clients/generate.ts); the same small
 * program written against each (support/generated-clients/*.mts) compiles with `tsc --strict` and no
 * cast, then runs against this server: a create, a list paged with a `metadata[vip]=eq:true` filter (what
 * each client sends is read off the wire), a booking from a free slot, a 422 read by its code. And the
 * contract stays additive for them: with every answer carrying an attribute added later and the 422 a
 * code added later, each program reads them all the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_ADDED_LATER, type Program, type ProgramOutcome } from './support/generated-clients/program';
import { generateClient, generatedDir, GENERATORS, type Generator } from './support/generated-clients/generate';
import { useClinic, uniqueName } from './helpers';
import { hostFetch } from './support/host-fetch';
import { root } from './support/spawn';

const source = path.join(__dirname, 'support', 'generated-clients');
// Inside the repository, so the programs resolve openapi-fetch and typescript from node_modules.
const dir = path.join(root, 'node_modules', '.cache', `openapi-generators-${process.pid}`);
const t = useClinic({ seed: true });
const PAGE_SIZE = 3;

beforeAll(async () => {
  const res = await t.api.get('/openapi.json', { key: null });
  expect(res.status).toBe(200);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const document = path.join(dir, 'openapi.json');
  fs.writeFileSync(document, res.text);
  for (const file of fs.readdirSync(source))
    if (file === 'program.ts' || file.endsWith('.mts')) fs.copyFileSync(path.join(source, file), path.join(dir, file));
  // One after the other: orval and hey-api each hold the whole document in memory.
  for (const generator of GENERATORS) await generateClient(generator, document, dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** Diagnostics of the three programs, checked together (one checker over the three generated clients). */
let checked: { diagnostics: Map<string, string[]>; files: string[] } | undefined;
function typecheck() {
  if (checked) return checked;
  const roots = GENERATORS.map((g) => path.join(dir, `${g}.mts`));
  const program = ts.createProgram(roots, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  const diagnostics = new Map<string, string[]>(roots.map((r) => [r, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '(options)';
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    const key =
      roots.find((r) => r === file) ??
      roots.find((r) => file.startsWith(generatedDir(dir, path.basename(r, '.mts') as Generator))) ??
      file;
    diagnostics.set(key, [
      ...(diagnostics.get(key) ?? []),
      `${path.relative(dir, file)}:${at} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    ]);
  }
  checked = { diagnostics, files: program.getSourceFiles().map((f) => f.fileName) };
  return checked;
}

/** Casts and escapes a program may not use: `as`, `<T>x`, `any`, `@ts-` directives. */
function escapes(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || node.kind === ts.SyntaxKind.AnyKeyword)
      found.push(node.getText(sf));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // And the grep: the word `as` anywhere outside comments (imports rename nothing either).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  for (const line of code.split('\n')) if (/\bas\b|@ts-/.test(line)) found.push(line.trim());
  return found;
}

interface Sent {
  method: string;
  url: URL;
  status: number;
}

/** A fetch that reaches the test server with the clinic's Host, logs each exchange, and may rewrite the JSON answer. */
function wire(rewrite?: (body: Record<string, unknown>, status: number) => void) {
  const sent: Sent[] = [];
  const send = hostFetch(t.server);
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await send(request);
    sent.push({ method: request.method, url: new URL(request.url), status: response.status });
    if (!rewrite || !response.headers.get('content-type')?.startsWith('application/json')) return response;
    const body = (await response.json()) as Record<string, unknown>;
    rewrite(body, response.status);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  return { fetch, sent };
}

/** The attribute a later version might add, on the envelope and on each record of an answer. */
function addLaterAttributes(body: Record<string, unknown>, status: number): void {
  body.added_later = { nested: [1, 'two'] };
  const data = body.data;
  for (const record of Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [])
    (record as Record<string, unknown>).added_later = 'x';
  if (status === 422) body.code = CODE_ADDED_LATER;
}

async function programOf(generator: Generator): Promise<Program> {
  const loaded = (await import(pathToFileURL(path.join(dir, `${generator}.mts`)).href)) as { program: Program };
  return loaded.program;
}

/** Patients with the last name: VIPs (metadata.vip true) and others, and a VIP of another name. */
async function patientsNamed(lastName: string): Promise<{ vips: number[] }> {
  const make = async (last_name: string, vip: boolean) =>
    (await t.api.post('/patients', { body: { first_name: 'Pre', last_name, metadata: { vip } } })).body.data
      .id as number;
  const vips: number[] = [];
  for (const vip of [true, false, true, false, true]) {
    const id = await make(lastName, vip);
    if (vip) vips.push(id);
  }
  await make(`${lastName}Other`, true);
  return { vips };
}

const chunks = (ids: number[], size: number) =>
  Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, i * size + size));

/** What the server holds after a program ran, checked against its outcome. */
async function expectDone(outcome: ProgramOutcome, lastName: string, vips: number[]) {
  expect(outcome.pages).toEqual(chunks([...vips, outcome.created], PAGE_SIZE));
  const patient = await t.api.get(`/patients/${outcome.created}`);
  expect(patient.body.data).toMatchObject({ last_name: lastName, metadata: { vip: true } });
  expect(outcome.booked.status).toBe(201);
  const appointment = await t.api.get(`/appointments/${outcome.booked.id}`);
  expect(appointment.status).toBe(200);
  expect(appointment.body.data).toMatchObject({
    patient_id: outcome.created,
    starts_at: outcome.slot.starts_at,
    practitioner_id: outcome.slot.practitioner_id,
    location_id: outcome.slot.location_id,
  });
  // The refused create changed nothing: the VIPs and the other patients are all the last name has.
  const all = await t.api.get(`/patients?last_name=eq:${lastName}&page_size=100`);
  expect(all.body.data).toHaveLength(vips.length + 2 + 1);
  expect(all.body.data.some((p: { email: string | null }) => p.email === 'not an email')).toBe(false);
}

describe.each(GENERATORS)('%s', (generator) => {
  it('the program compiles with tsc --strict against the generated client, with no cast', { timeout: 120_000 }, () => {
    const file = path.join(dir, `${generator}.mts`);
    const { diagnostics, files } = typecheck();
    expect(diagnostics.get(file)).toEqual([]);
    // It was checked against the generated client, not against nothing.
    expect(files.some((f) => f.startsWith(generatedDir(dir, generator)))).toBe(true);
    expect(escapes(file)).toEqual([]);
  });

  it(
    'runs against the server: create, list paged with metadata[vip]=eq:true as the server reads it, book a free slot, a 422 by its code',
    { timeout: 60_000 },
    async () => {
      const lastName = uniqueName('Gen');
      const { vips } = await patientsNamed(lastName);
      const { fetch, sent } = wire();
      const program = await programOf(generator);
      const outcome = await program({
        baseUrl: `http://${t.clinic.host}/v3/api`,
        apiKey: t.clinic.key,
        fetch,
        lastName,
        pageSize: PAGE_SIZE,
      });
      await expectDone(outcome, lastName, vips);
      expect(outcome.refused).toEqual({ status: 422, code: 'validation_failed', fields: ['email'] });
      // What the client sent for the list: the filters as repeated parameters, metadata as a deepObject.
      const lists = sent.filter((s) => s.method === 'GET' && s.url.pathname === '/v3/api/patients');
      expect(lists).toHaveLength(outcome.pages.length);
      for (const [i, { url, status }] of lists.entries()) {
        expect(status).toBe(200);
        expect([...url.searchParams.keys()].sort()).toEqual([
          'last_name',
          'metadata[vip]',
          'page',
          'page_size',
          'sort',
        ]);
        expect(url.searchParams.getAll('last_name')).toEqual([`eq:${lastName}`]);
        expect(url.searchParams.getAll('metadata[vip]')).toEqual(['eq:true']);
        expect(url.searchParams.get('page')).toBe(String(i + 1));
      }
      expect(sent.map((s) => `${s.method} ${s.url.pathname} ${s.status}`)).toEqual([
        'POST /v3/api/patients 201',
        ...lists.map(() => 'GET /v3/api/patients 200'),
        'GET /v3/api/appointments 200',
        'GET /v3/api/availability 200',
        'POST /v3/api/appointments 201',
        'POST /v3/api/patients 422',
      ]);
    },
  );

  it(
    'reads answers carrying an attribute added later and a 422 with a code added later (the contract is additive)',
    { timeout: 60_000 },
    async () => {
      const lastName = uniqueName('Later');
      const { vips } = await patientsNamed(lastName);
      const { fetch } = wire(addLaterAttributes);
      const program = await programOf(generator);
      const outcome = await program({
        baseUrl: `http://${t.clinic.host}/v3/api`,
        apiKey: t.clinic.key,
        fetch,
        lastName,
        pageSize: PAGE_SIZE,
      });
      await expectDone(outcome, lastName, vips);
      expect(outcome.refused).toEqual({ status: 422, code: CODE_ADDED_LATER, fields: ['email'] });
      // And at compile time: each program assigns that code to its client's error-code type.
      const loaded = (await import(pathToFileURL(path.join(dir, `${generator}.mts`)).href)) as {
        codeAddedLater: string;
      };
      expect(loaded.codeAddedLater).toBe(CODE_ADDED_LATER);
    },
  );
});
