/**
 * How the gateway's answers leave (server/rest/outcome.ts `send`): the head at once, so a header node
 * refuses throws to the caller; the bytes with the other answers of the event loop's turn, in the order
 * they were sent, and no later than the turn's end (decision 255).
 */
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { send } from '../rest/outcome';

/** A response that records what happens to it. */
function recorder(name: string, log: string[], opts: { endThrows?: boolean } = {}) {
  const res = {
    headersSent: false,
    writeHead(status: number, headers: Record<string, string>) {
      log.push(`${name} head ${status} ${headers['X-Request-Id']}`);
      res.headersSent = true;
      return res;
    },
    end(body?: string) {
      log.push(`${name} end ${body ?? ''}`);
      if (opts.endThrows) throw new Error('socket gone');
    },
    destroy() {
      log.push(`${name} destroyed`);
    },
  };
  return res as unknown as ServerResponse;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('answers sent in one turn leave together after it, in order, each with its head written at once', async () => {
  const log: string[] = [];
  send(recorder('a', log), { status: 200, body: '{"a":1}' }, 'id-a', null);
  send(recorder('b', log), { status: 404, body: '{"b":2}' }, 'id-b', null);
  // Heads now; no body yet, and not after a microtask either (only once the turn is over).
  expect(log).toEqual(['a head 200 id-a', 'b head 404 id-b']);
  await Promise.resolve();
  expect(log).toHaveLength(2);
  await nextTurn();
  expect(log).toEqual(['a head 200 id-a', 'b head 404 id-b', 'a end {"a":1}', 'b end {"b":2}']);
});

test('a header node refuses throws to the caller, and nothing of that answer is queued', async () => {
  const log: string[] = [];
  const res = new http.ServerResponse(new http.IncomingMessage(null as never));
  expect(() => send(res, { status: 200, body: '{}', headers: { 'X-Bad': 'a\nb' } }, 'id', null)).toThrow(
    /Invalid character/,
  );
  send(recorder('next', log), { status: 200, body: '{}' }, 'id-next', null);
  await nextTurn();
  expect(log).toEqual(['next head 200 id-next', 'next end {}']);
  // Had it been queued, the turn's end would have ended it.
  expect(res.writableEnded).toBe(false);
});

test('an answer whose end fails ends its connection, and the turn’s other answers still leave', async () => {
  const log: string[] = [];
  send(recorder('a', log, { endThrows: true }), { status: 200, body: 'x' }, 'id-a', null);
  send(recorder('b', log), { status: 200, body: 'y' }, 'id-b', null);
  await nextTurn();
  expect(log.slice(2)).toEqual(['a end x', 'a destroyed', 'b end y']);
});

describe('over a socket', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    // Three requests held until all have arrived, then answered in one turn.
    const held: ServerResponse[] = [];
    server = http.createServer((_req, res) => {
      held.push(res);
      if (held.length < 3) return;
      held.splice(0).forEach((r, i) => send(r, { status: 200, body: JSON.stringify({ i }) }, `id-${i}`, null));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('every held request gets its whole answer, with its own id and length', async () => {
    const get = () =>
      new Promise<{ status: number; id: string; length: string; body: string }>((resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1', path: '/', agent: false }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                id: String(res.headers['x-request-id']),
                length: String(res.headers['content-length']),
                body,
              }),
            );
          })
          .on('error', reject);
      });
    const answers = await Promise.all([get(), get(), get()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const a of answers) {
      expect(a.body).toBe(JSON.stringify({ i: Number(a.id.slice(3)) }));
      expect(a.length).toBe(String(a.body.length));
    }
    expect(new Set(answers.map((a) => a.id))).toEqual(new Set(['id-0', 'id-1', 'id-2']));
  });
});
