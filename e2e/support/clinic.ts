/** What the browser tests do beside the browser: run the CLI on the server's database, and call a clinic host. */
import { execFileSync } from 'node:child_process';
import http from 'node:http';

/** `npm run clinic -- …` against the e2e server's database (E2E_DATABASE, set by playwright.config.ts). */
export function cli(args: string[], input?: string) {
  return execFileSync('npx', ['tsx', 'server/cli/main.ts', ...args], {
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE },
    input,
    encoding: 'utf8',
  });
}

/** A JSON POST to a clinic host (Node cannot resolve *.localhost names: the Host header names the clinic). */
export function postToClinic(
  port: number,
  clinic: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const raw = JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          host: `${clinic}.neptune.localhost:${port}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(raw),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', reject);
    req.end(raw);
  });
}

/** A GET of a clinic's REST API with a key: its status and JSON body. */
export function apiGet(
  port: number,
  clinic: string,
  key: string,
  path: string,
): Promise<{ status: number; body: { data: Record<string, unknown>[] } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: `/v3/api${path}`,
        headers: { host: `${clinic}.neptune.localhost:${port}`, authorization: `Bearer ${key}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
