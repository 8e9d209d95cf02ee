/**
 * Issue 37 §5: the authorization endpoint counts refusals against the address; an Idempotency-Key is
 * one API key's own (each key is one integration); the public changelog and OpenAPI document have a
 * budget of their own and ETags, not the 2 a minute of unauthenticated calls.
 */
import { describe, expect, test } from 'vitest';
import { client, issueKey, request, useClinic } from './helpers';

const t = useClinic({ env: { RATE_LIMIT_UNAUTH_PER_MINUTE: '2', TRUST_PROXY: '1' } });
const address = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

describe('budgets', () => {
  test('invalid /authorize requests from one address: 2 answered (400), then 429', async () => {
    const ip = address();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(t.server, 'GET', `/v3/oauth2/authorize?client_id=nobody-${i}&response_type=code`, {
        host: t.clinic.host,
        key: null,
        headers: { 'x-forwarded-for': ip },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 429, 429, 429]);
  });

  test('the changelog and the OpenAPI document are read more than twice a minute without a key, with ETags', async () => {
    const ip = address();
    for (const path of ['/changelog', '/openapi.json']) {
      const first = await request(t.server, 'GET', path, {
        host: t.clinic.host,
        key: null,
        headers: { 'x-forwarded-for': ip },
      });
      expect(first.status).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      for (let i = 0; i < 4; i++) {
        const again = await request(t.server, 'GET', path, {
          host: t.clinic.host,
          key: null,
          headers: { 'x-forwarded-for': ip, 'if-none-match': etag },
        });
        expect(again.status).toBe(304);
      }
    }
    // Other unauthenticated calls keep their 2 a minute.
    const me = [];
    for (let i = 0; i < 3; i++)
      me.push(
        (await request(t.server, 'GET', '/me', { host: t.clinic.host, key: null, headers: { 'x-forwarded-for': ip } }))
          .status,
      );
    expect(me).toEqual([401, 401, 429]);
  });
});

describe('Idempotency-Key belongs to one API key', () => {
  test("another key's same Idempotency-Key is another key: never the first key's answer, never blocked by it", async () => {
    const second = (await issueKey(t.server, t.clinic, { name: 'Second integration' })).secret;
    const one = client(t.server, t.clinic);
    const two = client(t.server, t.clinic, second);
    const headers = { 'Idempotency-Key': `shared-${Date.now()}` };
    const first = await one.post('/patients', { body: { first_name: 'Una', last_name: 'One' }, headers });
    expect(first.status).toBe(201);
    const same = await two.post('/patients', { body: { first_name: 'Una', last_name: 'One' }, headers });
    expect(same.status).toBe(201);
    expect(same.headers['idempotent-replayed']).toBeUndefined();
    expect(same.body.data.id).not.toBe(first.body.data.id);
    const other = await two.post('/patients', { body: { first_name: 'Tess', last_name: 'Two' }, headers });
    expect(other.status).toBe(422); // key two's own key, used for another body
    const retry = await one.post('/patients', { body: { first_name: 'Una', last_name: 'One' }, headers });
    expect([retry.status, retry.headers['idempotent-replayed'], retry.body.data.id]).toEqual([
      201,
      'true',
      first.body.data.id,
    ]);
  });
});
