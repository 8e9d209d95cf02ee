/**
 * The event catalogue (server/events/types.ts) held to the routes. Every write route of the REST
 * surface — each POST, PATCH and DELETE of the route table — and every setup mutation of the portal
 * (`practice.*`, staff's writes of what the API keeps read-only) is called with valid input declared
 * in support/write-calls.ts (CALLS and SETUP_CALLS: one without an entry fails the test), and what it announces is read
 * from the outbox: every type must be in the catalogue and marked as firing, and every type marked as
 * firing must be announced by some route or procedure. The types marked as never firing say why.
 */
import { and, eq, gt } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { events } from '../../db/schema';
import type { announce, recordWrite } from '../events/record';
import { EVENT_CATALOGUE, isEventType, PORTAL_SETUP_RESOURCES } from '../events/types';
import { useClinic } from './helpers';
import {
  CALLS,
  callRoute,
  callSetup,
  nameOf,
  prepareWriteCalls,
  SETUP,
  SETUP_CALLS,
  WRITES,
} from './support/write-calls';

const t = useClinic();

beforeAll(() => prepareWriteCalls(t));

const outboxSince = async (afterId: number) =>
  t.server.app.db.db
    .select({ id: events.id, type: events.type })
    .from(events)
    .where(and(eq(events.account_id, t.clinic.account.id), gt(events.id, afterId)))
    .orderBy(events.id);
const lastEventId = async () => (await outboxSince(0)).at(-1)?.id ?? 0;

test('every write route has valid input declared here', () => {
  expect(WRITES.length).toBeGreaterThan(20);
  expect(
    WRITES.map(nameOf).filter((name) => !CALLS[name]),
    'write routes with no input in CALLS',
  ).toEqual([]);
  expect(
    Object.keys(CALLS).filter((name) => !WRITES.some((r) => nameOf(r) === name)),
    'CALLS for routes that do not exist',
  ).toEqual([]);
  expect(SETUP.length).toBeGreaterThanOrEqual(12);
  expect(
    SETUP.filter((path) => !SETUP_CALLS[path]),
    'setup procedures with no input in SETUP_CALLS',
  ).toEqual([]);
  expect(
    Object.keys(SETUP_CALLS).filter((path) => !SETUP.includes(path)),
    'SETUP_CALLS for procedures that do not exist',
  ).toEqual([]);
});

test('every write route, called with valid input, announces only catalogued types marked as firing; every firing type is announced', async () => {
  /** Types announced by each route's own calls (not its setup). */
  const byRoute = new Map<string, Set<string>>();
  const start = await lastEventId();
  for (const route of WRITES) {
    const inputs = await CALLS[nameOf(route)]!();
    const before = await lastEventId();
    for (const input of inputs) await callRoute(route, input);
    byRoute.set(nameOf(route), new Set((await outboxSince(before)).map((e) => e.type)));
  }
  const restTypes = new Set([...byRoute.values()].flatMap((types) => [...types]));
  for (const path of SETUP) {
    const inputs = await SETUP_CALLS[path]!();
    const before = await lastEventId();
    for (const input of inputs) await callSetup(path, input);
    byRoute.set(`portal ${path}`, new Set((await outboxSince(before)).map((e) => e.type)));
  }
  const announced = new Set((await outboxSince(start)).map((e) => e.type));
  const firing = new Set(EVENT_CATALOGUE.filter((e) => e.fires).map((e) => e.type));

  const offCatalogue = [...byRoute].flatMap(([route, types]) =>
    [...types].filter((type) => !isEventType(type)).map((type) => `${route} → ${type}`),
  );
  expect(offCatalogue, 'announced types outside the catalogue').toEqual([]);
  const saidSilent = [...byRoute].flatMap(([route, types]) =>
    [...types].filter((type) => isEventType(type) && !firing.has(type)).map((type) => `${route} → ${type}`),
  );
  expect(saidSilent, 'announced types the catalogue says never fire').toEqual([]);
  expect(
    [...firing].filter((type) => !announced.has(type)),
    'types the catalogue says fire, announced by no route',
  ).toEqual([]);
  expect(byRoute.get('POST /clinical_notes')).toEqual(new Set(['clinical_notes.created']));
  // The setup resources change through the portal only (the API keeps them read-only), each verb from its procedure.
  const setupTypes = EVENT_CATALOGUE.filter((e) =>
    (PORTAL_SETUP_RESOURCES as readonly string[]).includes(e.type.slice(0, e.type.indexOf('.'))),
  );
  expect(
    setupTypes.filter((e) => !e.fires || restTypes.has(e.type)).map((e) => e.type),
    'setup types silent or sent by the REST API',
  ).toEqual([]);
  expect(byRoute.get('portal practice.practitioners.delete')).toEqual(new Set(['practitioners.deleted']));
  for (const path of SETUP.filter((p) => /^practice\.(billableItems|rooms)\./.test(p)))
    expect(byRoute.get(`portal ${path}`), path).toEqual(new Set());
  expect(
    EVENT_CATALOGUE.filter((e) => !e.fires).every((e) => e.reason),
    'every type that never fires says why',
  ).toBe(true);
});

/** Compile-time: announce and recordWrite take catalogued types only (tsc checks this function; it never runs). */
export function typedEventTypes(tx: Parameters<typeof announce>[0], write: typeof recordWrite, say: typeof announce) {
  const base = { accountId: 1, actor: { actor_type: 'system' as const, actor_id: null, actor_name: 'x' }, entityId: 1 };
  void say(tx, 1, 'patients.created', 'patients', 1);
  // @ts-expect-error a typo is not a type
  void say(tx, 1, 'patients.craeted', 'patients', 1);
  void write(tx, { ...base, entity: 'clinical_notes', action: 'created' });
  // @ts-expect-error notes are written once: there is no clinical_notes.updated
  void write(tx, { ...base, entity: 'clinical_notes', action: 'updated' });
  // @ts-expect-error an entity with no events must name its event (or null)
  void write(tx, { ...base, entity: 'line_items', action: 'created' });
  void write(tx, { ...base, entity: 'line_items', action: 'created', eventType: 'invoices.updated' });
}
