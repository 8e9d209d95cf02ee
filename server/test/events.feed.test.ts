/**
 * GET /events: the feed a receiver catches up from, in the webhook payload's shape. Filters (with the
 * data.* aliases), cursor paging, the 30-day window and its sweep, any key, the tenant wall; the
 * catalogue of types (which fire today) as /schema and the portal state it.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { events } from '../../db/schema';
import { sweepEvents } from '../events/sweep';
import { client, expectError, newClinic, outboxEvents, useClinic, type Clinic } from './helpers';
import { portalData, signedIn } from './support/portal';

// Private webhook targets: an endpoint on loopback is subscribed (never delivered to: no worker runs here).
const t = useClinic({ env: { WEBHOOKS_ALLOW_PRIVATE: '1' } });
const { api } = t;
let patientId: number;

const DAY = 86_400_000;
/** An event written straight to the outbox, `daysAgo` days back. */
async function oldEvent(clinic: Clinic, daysAgo: number) {
  const event_id = randomUUID();
  await t.server.app.db.transaction((tx) =>
    tx.insert(events).values({
      event_id,
      account_id: clinic.account.id,
      type: 'patients.updated',
      entity: 'patients',
      entity_id: patientId,
      occurred_at: new Date(Date.now() - daysAgo * DAY).toISOString(),
    }),
  );
  return event_id;
}

beforeAll(async () => {
  const created = await api.post('/patients', { body: { first_name: 'Fay', last_name: 'Feed' } });
  patientId = created.body.data.id;
  for (const name of ['Fae', 'Fey'])
    expect((await api.patch(`/patients/${patientId}`, { body: { first_name: name } })).status).toBe(200);
});

describe('GET /events', () => {
  test("a patient's events, in the webhook payload's shape, oldest first, the same ids as the outbox", async () => {
    const res = await api.get(`/events?data.entity=patients&data.id=${patientId}`);
    expect(res.status).toBe(200);
    const outbox = await outboxEvents(t.server, t.clinic, 'patients', patientId);
    expect(res.body.data).toEqual(
      outbox.map((e) => ({
        id: e.event_id,
        type: e.type,
        occurred_at: e.occurred_at,
        data: { entity: 'patients', id: patientId },
      })),
    );
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual([
      'patients.created',
      'patients.updated',
      'patients.updated',
    ]);
  });

  test('filters: type, entity (alias of data.entity), occurred_at, id; combined they AND', async () => {
    const all = (await api.get(`/events?data.id=${patientId}&entity=patients`)).body.data;
    const created = await api.get(`/events?type=patients.created&data.id=${patientId}`);
    expect(created.body.data).toEqual([all[0]]);
    expect(
      (await api.get(`/events?type=in:patients.created,patients.updated&data.entity=patients&data.id=${patientId}`))
        .body.data,
    ).toEqual(all);
    expect((await api.get(`/events?id=${all[1].id}`)).body.data).toEqual([all[1]]);
    const since = await api.get(`/events?data.id=${patientId}&occurred_at=gte:${all[1].occurred_at}&entity=patients`);
    expect(since.body.data.map((e: { id: string }) => e.id)).toEqual(
      all.filter((e: { occurred_at: string }) => e.occurred_at >= all[1].occurred_at).map((e: { id: string }) => e.id),
    );
    expect((await api.get(`/events?data.id=${patientId}&entity=appointments`)).body.data).toEqual([]);
  });

  test('GET /events/{id}: one event; an unknown id is 404 not_found', async () => {
    const [first] = (await api.get(`/events?data.id=${patientId}&entity=patients`)).body.data;
    const one = await api.get(`/events/${first.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: first });
    expectError(await api.get(`/events/${randomUUID()}`), 404, 'not_found');
    expectError(await api.get('/events/not-an-event'), 404, 'not_found');
  });

  test('cursor paging walks every event once, page by page', async () => {
    for (let i = 0; i < 4; i++) await api.patch(`/patients/${patientId}`, { body: { last_name: `Feed ${i}` } });
    // On PostgreSQL the feed holds events back while older transactions of the server are in flight
    // (other files' too): the walk starts once all seven are out.
    const all = async () =>
      (await api.get(`/events?data.id=${patientId}&entity=patients&page_size=100`)).body.data.map(
        (e: { id: string }) => e.id,
      ) as string[];
    await expect.poll(all, { timeout: 15_000 }).toHaveLength(7);
    const expected = await all();
    const seen: string[] = [];
    let next = `/events?data.id=${patientId}&entity=patients&page_size=2&cursor=`;
    for (let more = true; more;) {
      const page = await api.get(next.replace(/^https?:\/\/[^/]+\/v3\/api/, ''));
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((e: { id: string }) => e.id));
      // The feed's last page still links where to resume.
      expect(page.body.links.next).toEqual(expect.any(String));
      next = page.body.links.next;
      more = page.body.meta.has_more;
    }
    expect(seen).toEqual(expected);
    expect(expected.length).toBe(7);
  });

  test('unknown types, entities, filters and malformed ids are 422 validation_failed naming the parameter', async () => {
    for (const [query, param] of [
      ['type=patients.exploded', 'type'],
      ['data.entity=spaceships', 'data.entity'],
      ['entity=spaceships', 'entity'],
      ['data.id=abc', 'data.id'],
      ['data.kind=x', 'data.kind'],
      ['occurred_at=gte:yesterday', 'occurred_at'],
      ['sort=data', 'sort'],
    ]) {
      const res = await api.get(`/events?${query}`);
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors), query).toEqual([param]);
    }
  });

  test('the feed shows the last 30 days; older events are swept from the outbox', async () => {
    const recent = await oldEvent(t.clinic, 29);
    const stale = await oldEvent(t.clinic, 31);
    expect((await api.get(`/events/${recent}`)).status).toBe(200);
    expectError(await api.get(`/events/${stale}`), 404, 'not_found');
    expect((await api.get(`/events?id=in:${recent},${stale}`)).body.data.map((e: { id: string }) => e.id)).toEqual([
      recent,
    ]);
    await sweepEvents(t.server.app.db);
    const left = await t.server.app.db.db
      .select({ id: events.event_id })
      .from(events)
      .where(eq(events.account_id, t.clinic.account.id));
    expect(left.map((e) => e.id)).toContain(recent);
    expect(left.map((e) => e.id)).not.toContain(stale);
  });

  test('any key reads it (read-only too); another clinic sees only its own events', async () => {
    const readOnly = await api.get(`/events?data.id=${patientId}&entity=patients`, { key: t.clinic.readOnlyKey });
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.data.length).toBeGreaterThan(0);
    const other = await newClinic(t.server);
    const theirs = client(t.server, other);
    const mine = (await api.get(`/events?data.id=${patientId}&entity=patients`)).body.data;
    expect((await theirs.get(`/events?data.id=${patientId}&entity=patients`)).body.data).toEqual([]);
    expectError(await theirs.get(`/events/${mine[0].id}`), 404, 'not_found');
  });

  test('/schema/events and the OpenAPI document state the filters, including the data.* aliases', async () => {
    const schema = (await api.get('/schema/events')).body.data;
    expect(schema.operations).toEqual(['list', 'read']);
    expect(schema.filtering.filterable).toEqual(['id', 'type', 'occurred_at', 'data.entity', 'entity', 'data.id']);
    expect(Object.keys(schema.filtering.filter_only)).toEqual(['data.entity', 'entity', 'data.id']);
    expect(schema.attributes.type.enum).toContain('patients.created');
    const doc = (await api.get('/openapi.json')).body;
    const params = doc.paths['/events'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(
      expect.arrayContaining(['type', 'occurred_at', 'data.entity', 'entity', 'data.id', 'cursor']),
    );
  });
});

describe('the event catalogue', () => {
  test('a clinical note announces clinical_notes.created: in the feed, filterable by type and entity, and an endpoint may subscribe to it', async () => {
    const note = await api.post('/clinical_notes', {
      body: { patient_id: patientId, title: 'Assessment', body: 'Left knee' },
    });
    expect(note.status).toBe(201);
    const byType = await api.get(`/events?type=clinical_notes.created&data.id=${note.body.data.id}`);
    expect(byType.status).toBe(200);
    expect(byType.body.data.map((e: { type: string; data: unknown }) => [e.type, e.data])).toEqual([
      ['clinical_notes.created', { entity: 'clinical_notes', id: note.body.data.id }],
    ]);
    const byEntity = await api.get(`/events?data.entity=clinical_notes&data.id=${note.body.data.id}`);
    expect(byEntity.body.data).toEqual(byType.body.data);
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const subscribed = await portal.mutate('webhooks.create', {
      url: 'http://127.0.0.1:9/notes',
      events: ['clinical_notes.created'],
    });
    expect(subscribed.status, subscribed.text).toBe(200);
    expect(portalData(subscribed).endpoint.events).toEqual(['clinical_notes.created']);
  });

  test("/schema/events and the portal's event chooser list every type with whether it fires today, and why not", async () => {
    const types = (await api.get('/schema/events')).body.data.event_types as {
      type: string;
      fires: boolean;
      reason: string | null;
    }[];
    expect(types).toHaveLength(57);
    // Silent: tags on timeline entries made or changed, timeline entries changed, allocations changed.
    expect(types.filter((e) => !e.fires).map((e) => e.type)).toEqual([
      'payment_allocations.updated',
      'patient_logs.updated',
      'patient_log_tags.created',
      'patient_log_tags.updated',
    ]);

    expect(types.filter((e) => !e.fires).every((e) => typeof e.reason === 'string' && e.reason.length > 0)).toBe(true);
    expect(types.filter((e) => e.fires).every((e) => e.reason === null)).toBe(true);
    const of = (type: string) => types.find((e) => e.type === type);
    // A deleted patient's timeline and its tags are announced.
    expect(of('patient_log_tags.deleted')?.fires).toBe(true);
    expect(of('patient_logs.deleted')?.fires).toBe(true);
    expect(of('patients.created')).toMatchObject({ type: 'patients.created', fires: true, reason: null });
    expect(of('clinical_notes.created')?.fires).toBe(true);
    expect(of('patient_log_tags.created')).toMatchObject({
      fires: false,
      reason: expect.stringMatching(/timeline entries/),
    });
    expect(of('locations.created')).toMatchObject({ fires: true, reason: null });
    expect(of('referral_sources.deleted')?.fires).toBe(true);
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    // The chooser's list is the catalogue's (its sentences and examples are the event catalogue page's: openapi.webhooks.test.ts).
    const fired = (list: typeof types) => list.map(({ type, fires, reason }) => ({ type, fires, reason }));
    expect(fired(portalData(await portal.query('webhooks.list')).event_types)).toEqual(fired(types));
  });
});
