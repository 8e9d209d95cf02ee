/**
 * The served OpenAPI document passes Redocly's `recommended` ruleset with no error and no warning (the
 * second linter integrators meet, beside Spectral in openapi.product.test.ts). A second run lints a copy
 * with known defects, so a ruleset that was not loaded or an output that was not read cannot pass.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { useClinic } from './helpers';
import { root } from './support/spawn';

const dir = path.join(root, 'node_modules', '.cache', `openapi-redocly-${process.pid}`);
const t = useClinic();

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { source: { ref: string }; pointer: string }[];
}

let served: Problem[];
let broken: Problem[];

beforeAll(async () => {
  const res = await t.api.get('/openapi.json', { key: null });
  expect(res.status).toBe(200);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'openapi.json'), res.text);
  // An operation without a summary, and a document without servers: each an error of `recommended`.
  const defective = JSON.parse(res.text);
  delete defective.paths['/patients'].get.summary;
  delete defective.servers;
  fs.writeFileSync(path.join(dir, 'broken.json'), JSON.stringify(defective));
  fs.writeFileSync(path.join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
  const redocly = path.join(root, 'node_modules', '.bin', 'redocly');
  // Telemetry and the update check off: nothing leaves the machine.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  // One document a run: with several, the CLI prints one JSON report after another.
  const lint = (file: string) =>
    promisify(execFile)(redocly, ['lint', file, '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: dir,
      env,
      maxBuffer: 64 << 20,
    })
      .catch((err: { stdout: string }) => err)
      .then((run) => (JSON.parse(run.stdout) as { problems: Problem[] }).problems);
  [served, broken] = await Promise.all([lint('openapi.json'), lint('broken.json')]);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

it('passes the Redocly recommended ruleset with no errors and no warnings', () => {
  expect(served.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
});

it('a copy with defects fails it (so the ruleset is loaded and its report read)', () => {
  const found = broken.map((p) => `${p.severity} ${p.ruleId}`);
  expect(found).toEqual(expect.arrayContaining(['error operation-summary', 'error no-empty-servers']));
});
