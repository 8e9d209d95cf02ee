/**
 * A fetch for client libraries (oauth4webapi, the MCP SDK clients) that reaches the test server with
 * the URL's host as the Host header: Node's fetch would resolve `*.neptune.localhost` itself and
 * ignores a Host header. Redirects are never followed (the tests read Location).
 */
import http from 'node:http';
import type { TestServer } from '../helpers';

export function hostFetch(server: TestServer): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = Object.fromEntries(request.headers.entries());
    headers.host = url.host;
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: server.port, method: request.method, path: `${url.pathname}${url.search}`, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const out = new Headers();
            for (const [k, v] of Object.entries(res.headers))
              for (const item of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, item);
            const status = res.statusCode ?? 500;
            resolve(
              new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: out }),
            );
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }) as typeof fetch;
}
