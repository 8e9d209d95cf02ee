/**
 * The three generators, each run as its documentation shows on an OpenAPI document file, writing into
 * `{dir}/generated/{generator}/`: hey-api (its fetch client, SDK and types), orval (its fetch client, one
 * file), openapi-typescript (types for openapi-fetch). Plain output only: none emits runtime validation
 * (no zod), so what a response may carry beyond the document is the types' business alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import { generate as orval } from 'orval';

export const GENERATORS = ['hey-api', 'orval', 'openapi-typescript'] as const;
export type Generator = (typeof GENERATORS)[number];

export const generatedDir = (dir: string, generator: Generator) => path.join(dir, 'generated', generator);

/** Generates the client of `generator` from the document at `documentFile`; resolves with the folder written. */
export async function generateClient(generator: Generator, documentFile: string, dir: string): Promise<string> {
  const out = generatedDir(dir, generator);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  if (generator === 'hey-api') {
    await createClient({
      input: documentFile,
      output: { path: out },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });
  } else if (generator === 'orval') {
    // useRuntimeFetcher: each function takes the caller's fetch (a base URL and a Host of its own, here).
    await orval({
      input: { target: documentFile },
      output: {
        target: path.join(out, 'clinic.ts'),
        client: 'fetch',
        mode: 'single',
        override: { fetch: { useRuntimeFetcher: true } },
      },
    });
  } else {
    fs.writeFileSync(path.join(out, 'api.d.ts'), astToString(await openapiTS(fs.readFileSync(documentFile, 'utf8'))));
  }
  return out;
}
