/**
 * The OpenAPI document as integrators use it: it passes Spectral's `oas` ruleset with no error and no
 * warning, and a client generated from it with openapi-typescript typechecks a small openapi-fetch
 * program (list paging, a get, a create, an error branch) against the real shapes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../rest/openapi';
import { RouteTable } from '../rest/routes';
import { appRouter } from '../routers';
import { root } from './support/spawn';

// Inside the repository, so the client program resolves openapi-fetch from node_modules.
const dir = path.join(root, 'node_modules', '.cache', `openapi-client-${process.pid}`);
const doc = buildOpenApiDocument(new RouteTable(appRouter));

beforeAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
  fs.writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

it('passes the Spectral oas ruleset with no errors and no warnings', { timeout: 60_000 }, async () => {
  const spectral = path.join(root, 'node_modules', '.bin', 'spectral');
  const run = await promisify(execFile)(spectral, ['lint', path.join(dir, 'openapi.json'), '--ruleset', path.join(dir, '.spectral.yaml'), '--format', 'json', '--fail-severity', 'hint', '--quiet'], {
    cwd: dir,
  }).catch((err: { stdout: string }) => err);
  const results = JSON.parse(run.stdout || '[]') as { code: string; message: string; path: string[]; severity: number }[];
  expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
});

it('generates a typed client whose program typechecks: paging, a get, a create and an error branch', { timeout: 60_000 }, async () => {
  fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(JSON.stringify(doc))));
  fs.writeFileSync(
    path.join(dir, 'client.ts'),
    `import createClient from 'openapi-fetch';
import type { paths } from './api';

const api = createClient<paths>({ baseUrl: 'https://demo.neptune.example.com/v3/api', headers: { Authorization: 'Bearer cpk_example' } });

export async function program(): Promise<string[]> {
  const names: string[] = [];
  let page = 1;
  for (;;) {
    const { data } = await api.GET('/patients', { params: { query: { page, page_size: 50, last_name: 'eq:Lovelace', sort: 'first_name' } } });
    if (!data) break;
    for (const p of data.data) names.push(p.first_name + ' ' + p.last_name);
    if (!data.links.next) break;
    page++;
  }
  const one = await api.GET('/patients/{id}', { params: { path: { id: 1 } } });
  const dob: string | null | undefined = one.data?.data.dob;
  const created = await api.POST('/patients', { body: { first_name: 'Ada', last_name: 'Lovelace', numbers: [{ number: '07700 900123', type: 'mobile' }] }, headers: { 'Idempotency-Key': 'abc' } });
  if (created.error) {
    const code: string = created.error.code;
    const problems: string[] | undefined = created.error.errors?.first_name;
    names.push(code, ...(problems ?? []));
  } else {
    const id: number = created.data.data.id;
    names.push(String(id), String(dob));
  }
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
