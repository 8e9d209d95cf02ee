/**
 * Webhooks in the contract: the served document's `webhooks` section holds every type of the event
 * catalogue once, each payload schema fixing its type; real deliveries (a patient created, changed and
 * deleted over REST, sent to a receiver on loopback) validate against the schema of their type, and
 * carry the documented Standard Webhooks headers; the portal's catalogue and GET /schema/events say
 * the same thing about every type, as the document does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint } from '../domain/webhooks';
import { EVENT_TYPES } from '../events/types';
import { useClinic } from './helpers';
import { OpenApiDoc, type Doc, type Json } from './support/openapi-doc';
import { portalCode, portalData, signedIn } from './support/portal';

const t = useClinic({ env: { WEBHOOK_RETRY_DELAYS: '0,0,0', WEBHOOK_TIMEOUT_MS: '2000' } });

type Parameter = Json & { name: string; in: string; required?: boolean; schema: Json };
type WebhookItem = {
  post: Json & {
    summary: string;
    description: string;
    parameters: Json[];
    requestBody: { required: boolean; content: Record<string, { schema: Json; example: Json }> };
    responses: Record<string, Json>;
  };
};
let doc: OpenApiDoc;
let webhooks: Record<string, WebhookItem>;

beforeAll(async () => {
  // The document as served, not as built: what a generator downloads.
  const res = await t.api.get('/openapi.json', { key: null });
  expect(res.status).toBe(200);
  doc = new OpenApiDoc(res.body as Doc);
  webhooks = (res.body as { webhooks: Record<string, WebhookItem> }).webhooks;
});

const payloadOf = (type: string) => webhooks[type].post.requestBody.content['application/json'];
/** The pointer of a type's payload schema (its named component). */
const pointerOf = (type: string) => (payloadOf(type).schema.$ref as string).slice(1);
const parametersOf = (type: string) => webhooks[type].post.parameters.map((p) => doc.resolve<Parameter>(p));

describe('the webhooks section', () => {
  it('lists every catalogued type once, each payload a named schema whose type is fixed to it', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const fixed = Object.values(webhooks).map((w) => {
      const schema = doc.resolve<{ allOf: Json[] }>(w.post.requestBody.content['application/json'].schema);
      expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/WebhookEvent' });
      return (schema.allOf[1] as { properties: { type: { const: string } } }).properties.type.const;
    });
    // One schema per type: no two webhooks share a payload, none is missing.
    expect(fixed.sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      expect(pointerOf(type), type).toMatch(/^\/components\/schemas\/[A-Z][A-Za-z]+Event$/);
      expect(webhooks[type].post.requestBody.required).toBe(true);
      expect(Object.keys(webhooks[type].post.responses).sort()).toEqual(['2XX', '410', 'default']);
    }
  });

  it("each type's example validates against its own schema and no other type's; an unknown type still fits the envelope", () => {
    for (const type of EVENT_TYPES) {
      const { example } = payloadOf(type);
      expect(example.type).toBe(type);
      expect(doc.problems(pointerOf(type), example), type).toEqual([]);
    }
    const example = payloadOf('patients.created').example;
    expect(doc.problems(pointerOf('patients.updated'), example)).not.toEqual([]);
    expect(
      doc.problems(pointerOf('patients.created'), { ...example, data: { entity: 'appointments', id: 1 } }),
    ).not.toEqual([]);
    // The API is additive: a type (and an attribute) added later validates against the shared envelope.
    const later = {
      ...example,
      type: 'patients.merged',
      data: { entity: 'patients', id: 1, merged_into: 2 },
      attempt: 1,
    };
    expect(doc.problems('/components/schemas/WebhookEvent', later)).toEqual([]);
    expect(doc.problems('/components/schemas/WebhookEvent', { ...later, data: { entity: 'patients' } })).not.toEqual(
      [],
    );
  });

  it('documents the three Standard Webhooks headers, required, on every type', () => {
    for (const type of EVENT_TYPES) {
      expect(
        parametersOf(type).map((p) => [p.name, p.in, p.required]),
        type,
      ).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
    }
  });
});

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.end('ok');
  });
});
beforeAll(() => new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r)));
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

describe('what is delivered is what is documented', () => {
  it('a patient created, changed and deleted over REST: each payload validates against its type, with the documented headers', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
    const types = ['patients.created', 'patients.updated', 'patients.deleted'];
    const { secret } = await createEndpoint(t.server.app.db, t.clinic.account, actor, { url, events: types }, true);
    const created = await t.api.post('/patients', { body: { first_name: 'Ada', last_name: 'Hook' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as number;
    expect((await t.api.patch(`/patients/${id}`, { body: { preferred_name: 'Ada' } })).status).toBe(200);
    expect((await t.api.delete(`/patients/${id}`)).status).toBe(204);
    await t.server.app.webhooks.drain();

    // Delivered concurrently: in any order (ordering is not promised, spec: Events).
    const payloads = received.map((r) => JSON.parse(r.body) as { type: string; data: { entity: string; id: number } });
    const byType = (x: { type: string }, y: { type: string }) => x.type.localeCompare(y.type);
    expect(payloads.map((p) => ({ type: p.type, data: p.data })).sort(byType)).toEqual(
      types.map((type) => ({ type, data: { entity: 'patients', id } })).sort(byType),
    );
    const ajv = new Ajv2020({ strict: false });
    received.forEach((r, i) => {
      const { type } = payloads[i];
      expect(doc.problems(pointerOf(type), payloads[i]), type).toEqual([]);
      // Delivered under another type's schema, it would not validate: the check is of this type.
      const other = types.find((x) => x !== type)!;
      expect(doc.problems(pointerOf(other), payloads[i])).not.toEqual([]);
      for (const p of parametersOf(type)) {
        const value = r.headers[p.name];
        expect(typeof value, `${type} ${p.name}`).toBe('string');
        expect(ajv.validate(p.schema, value), `${type} ${p.name}: ${String(value)}`).toBe(true);
      }
      // Every webhook-* header sent is documented; and the signature verifies as the description says.
      const sent = Object.keys(r.headers).filter((h) => h.startsWith('webhook-'));
      expect(sent.sort()).toEqual(
        parametersOf(type)
          .map((p) => p.name)
          .sort(),
      );
      const headers = Object.fromEntries(sent.map((h) => [h, String(r.headers[h])]));
      expect(new Webhook(secret).verify(r.body, headers)).toEqual(payloads[i]);
      expect(headers['webhook-id']).toBe((payloads[i] as unknown as { id: string }).id);
    });
  });
});

describe('one catalogue', () => {
  it("the portal's catalogue, GET /schema/events and the document say the same of every type, in the catalogue's order", async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'practitioner');
    const res = await portal.query('events.catalogue');
    expect(res.status, res.text).toBe(200);
    type Entry = {
      type: string;
      resource: string;
      description: string;
      fires: boolean;
      reason: string | null;
      example: Json;
    };
    const fromPortal = portalData(res).data as Entry[];
    const fromSchema = (await t.api.get('/schema/events')).body.data.event_types as Entry[];
    expect(fromPortal.map((e) => e.type)).toEqual([...EVENT_TYPES]);
    expect(fromSchema).toEqual(fromPortal);
    for (const e of fromPortal) {
      expect(e.description, e.type).toMatch(/^[A-Z].{10,}\.$/);
      expect(e.resource).toBe(e.type.split('.')[0]);
      expect(payloadOf(e.type).example).toEqual(e.example);
      const { summary, description } = webhooks[e.type].post;
      expect(summary).toBe(e.type);
      expect(description.startsWith(e.description), e.type).toBe(true);
      expect(description.includes(`Not sent today: ${e.reason}`), e.type).toBe(!e.fires);
    }
    expect(new Set(fromPortal.map((e) => e.description)).size).toBe(fromPortal.length);
  });

  it('needs a signed-in member', async () => {
    const res = await t.api.get('/developers/trpc/events.catalogue', { key: null });
    expect(res.status).toBe(401);
    expect(portalCode(res)).toBe('unauthenticated');
  });
});
