/**
 * The curated MCP tools show a member nothing a direct read would refuse or omit. For each curated
 * tool, as a practitioner whose role reads patients and appointments of their own patients only (record
 * scope own_patients, no Read billing), every record in the result, nested ones included, is compared
 * with the member's direct read of it (get_entity / query_entities, which run the list engine with the
 * member's restriction); patient ids and billing amounts are searched for anywhere in the result. A
 * member who reads every patient but not billing checks that care plans' billing is withheld the same
 * way in a direct read and in patient_summary. Most calls run the tools with a Connector built for the
 * member; one case goes through the real MCP endpoint over HTTP with an OAuth token.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { appointments, carePlanMembers } from '../../db/schema';
import type { MemberPrincipal } from '../context';
import { slotSchema } from '../resources/availability';
import { useClinic } from './helpers';
import { connectorCall, httpCall, memberWith, ok, type Call, type Rec } from './support/mcp-tools';

const t = useClinic({ seed: true });

/** Attribute names that carry billing amounts (and counts of invoices), wherever they appear. */
const BILLING_KEYS = new Set([
  'amount',
  'balance',
  'patient_balance',
  'third_party_balance',
  'subtotal',
  'unit_price',
  'price',
  'open_balance',
  'open_invoices',
]);

/** Every patient a value names: any `patient_id`, and the id of an embedded `patient`. */
function patientIdsIn(v: unknown, key = ''): number[] {
  if (Array.isArray(v)) return v.flatMap((x) => patientIdsIn(x, key));
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) =>
    (k === 'patient_id' || (key === 'patient' && k === 'id')) && typeof x === 'number' ? [x] : patientIdsIn(x, k),
  );
}

/** The paths of billing values (not null) anywhere in a value. */
function billingIn(v: unknown, path = '$'): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => billingIn(x, `${path}[${i}]`));
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) =>
    BILLING_KEYS.has(k) && x !== null ? [`${path}.${k}`] : billingIn(x, `${path}.${k}`),
  );
}

/** Whether the member may read a resource directly at all (query_entities is refused with permission_denied otherwise). */
async function readable(call: Call, entityType: string): Promise<boolean> {
  const out = await call('query_entities', { entity_type: entityType, page_size: 1 });
  if (!out.ok) expect(out.code).toBe('permission_denied');
  return out.ok;
}

/** The record equals the member's direct read of it: get_entity gives exactly it. */
async function expectDirect(call: Call, entityType: string, record: unknown) {
  const id = (record as Rec).id as number;
  expect(
    await call('get_entity', { entity_type: entityType, id }),
    `${entityType} ${id} as the member reads it directly`,
  ).toEqual({ ok: true, data: { data: record } });
}

/** patient_summary against the member's direct reads of every part. */
async function expectSummaryLikeDirectReads(call: Call, patientId: number) {
  const s = await ok(call, 'patient_summary', { patient_id: patientId });
  await expectDirect(call, 'patients', s.patient);

  const appts = await readable(call, 'appointments');
  for (const key of ['upcoming_appointments', 'recent_appointments']) {
    if (!appts) expect(s[key], key).toBeNull();
    for (const a of (s[key] as Rec[] | null) ?? []) await expectDirect(call, 'appointments', a);
  }

  if (await readable(call, 'invoices')) {
    const open = (
      await ok(call, 'query_entities', {
        entity_type: 'invoices',
        filters: { patient_id: `eq:${patientId}`, state: 'in:open,partially_paid' },
        page_size: 100,
      })
    ).data as Rec[];
    expect(s.open_invoices).toBe(open.length);
    expect(s.open_balance).toBe(
      (open.reduce((sum, inv) => sum + Math.round(Number(inv.balance) * 100), 0) / 100).toFixed(2),
    );
  } else {
    expect([s.open_balance, s.open_invoices]).toEqual([null, null]);
  }

  if (await readable(call, 'care_plans')) {
    const plans = s.active_care_plans as Rec[];
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan.status).toBe('active');
      expect((plan.members as Rec[]).map((m) => m.patient_id)).toContain(patientId);
      await expectDirect(call, 'care_plans', plan);
    }
  } else {
    // The direct read is refused (a care plan's members cannot be narrowed to the member's patients).
    expect(s.active_care_plans).toBeNull();
  }
  return s;
}

/** The practitioner (own_patients, no Read billing) and the data picked for them. */
let practitionerId: number;
let ownPatients: Set<number>;
/** One of the practitioner's patients, on an active care plan with a patient who is not theirs. */
let patientId: number;
let strangerOnPlan: number;
let planId: number;
let practitioner: MemberPrincipal;

const expectOwnOnly = (value: unknown) =>
  expect(
    patientIdsIn(value).filter((id) => !ownPatients.has(id)),
    'patients outside own_patients',
  ).toEqual([]);
const expectNoBilling = (value: unknown) => expect(billingIn(value), 'billing values without Read billing').toEqual([]);

beforeAll(async () => {
  const db = t.server.app.db;
  const acc = t.clinic.account.id;
  const [first] = (await t.api.get('/appointments?page_size=1&sort=id')).body.data;
  practitionerId = first.practitioner_id;
  patientId = first.patient_id;
  const theirs = await db.db
    .select({ patient_id: appointments.patient_id })
    .from(appointments)
    .where(
      and(
        eq(appointments.account_id, acc),
        eq(appointments.practitioner_id, practitionerId),
        isNull(appointments.deleted_at),
      ),
    );
  ownPatients = new Set(theirs.map((a) => a.patient_id));
  // The first active care plan gets the patient and a patient of someone else as members, unless it has them.
  const plan = (await t.api.get('/care_plans?status=eq:active&sort=id')).body.data[0];
  planId = plan.id;
  const members: number[] = plan.members.map((m: Rec) => m.patient_id);
  strangerOnPlan =
    members.find((id) => !ownPatients.has(id)) ??
    (await t.api.get('/patients?page_size=100&sort=id')).body.data
      .map((p: Rec) => p.id)
      .find((id: number) => !ownPatients.has(id));
  for (const id of [patientId, strangerOnPlan].filter((x) => !members.includes(x))) {
    await db.transaction((tx) =>
      tx
        .insert(carePlanMembers)
        .values({ account_id: acc, care_plan_id: plan.id, patient_id: id, visits_used: 0, schedule_override: null }),
    );
  }
  // What the whole-clinic view (the REST API key) shows: the plan names the stranger and carries an amount.
  const whole = (await t.api.get(`/care_plans/${plan.id}`)).body.data;
  expect(whole.members.map((m: Rec) => m.patient_id)).toEqual(expect.arrayContaining([patientId, strangerOnPlan]));
  expect(whole.billing.amount).toMatch(/^\d+\.\d\d$/);

  practitioner = await memberWith(
    t,
    'practitioner',
    ['patients.read', 'appointments.read', 'connectors.manage'],
    'own_patients',
    practitionerId,
  );
});

describe('curated tools as an own_patients practitioner without Read billing', () => {
  test('patient_summary: no care plan naming another patient, no billing amount; every part as the direct read gives it', async () => {
    const call = connectorCall(t, practitioner);
    // The direct reads this compares with: care plans and invoices are refused to this member.
    expect(await call('get_entity', { entity_type: 'care_plans', id: planId })).toEqual({
      ok: false,
      code: 'permission_denied',
    });
    expect(await call('query_entities', { entity_type: 'invoices' })).toEqual({ ok: false, code: 'permission_denied' });
    const s = await expectSummaryLikeDirectReads(call, patientId);
    expect(patientIdsIn(s)).not.toContain(strangerOnPlan);
    expectOwnOnly(s);
    expectNoBilling(s);
    // A patient who is not theirs: outside the record scope (403), as get_entity answers; no such patient: 404.
    expect(await call('patient_summary', { patient_id: strangerOnPlan })).toEqual({
      ok: false,
      code: 'permission_denied',
    });
    expect(await call('get_entity', { entity_type: 'patients', id: strangerOnPlan })).toEqual({
      ok: false,
      code: 'permission_denied',
    });
    expect(await call('patient_summary', { patient_id: 2_000_000_000 })).toEqual({ ok: false, code: 'not_found' });
  });

  test('find_patient: every patient found is one get_entity gives the member, unchanged', async () => {
    const call = connectorCall(t, practitioner);
    const own = (await ok(call, 'get_entity', { entity_type: 'patients', id: patientId })).data as Rec;
    const stranger = (await t.api.get(`/patients/${strangerOnPlan}`)).body.data;
    for (const args of [
      { name: `${own.first_name} ${own.last_name}` },
      { name: String(own.last_name) },
      { name: String(stranger.last_name) },
      { dob: String(stranger.dob ?? own.dob) },
    ]) {
      const found = (await ok(call, 'find_patient', args)).data as Rec[];
      for (const p of found) await expectDirect(call, 'patients', p);
      expect(found.map((p) => p.id)).not.toContain(strangerOnPlan);
      expectOwnOnly(found);
      expectNoBilling(found);
    }
    expect(
      ((await ok(call, 'find_patient', { name: `${own.first_name} ${own.last_name}` })).data as Rec[]).map((p) => p.id),
    ).toContain(patientId);
  });

  test("practitioner_schedule: every appointment is one get_entity gives the member, for their own diary and another practitioner's", async () => {
    const call = connectorCall(t, practitioner);
    const all = (await t.api.get('/appointments?page_size=100&sort=starts_at')).body.data as Rec[];
    const other = all.find((a) => a.practitioner_id !== practitionerId)!;
    const firstOwn = all.find((a) => a.practitioner_id === practitionerId)!;
    let seen = 0;
    for (const [pid, date] of [
      [practitionerId, String(firstOwn.starts_at).slice(0, 10)],
      [other.practitioner_id as number, String(other.starts_at).slice(0, 10)],
    ] as const) {
      const out = await ok(call, 'practitioner_schedule', { practitioner_id: pid, date, days: 7 });
      for (const a of out.appointments as Rec[]) await expectDirect(call, 'appointments', a);
      seen += (out.appointments as Rec[]).length;
      expectOwnOnly(out);
      expectNoBilling(out);
    }
    expect(seen).toBeGreaterThan(0);
  });

  test('list_entity_types: readable is what query_entities allows the member', async () => {
    const call = connectorCall(t, practitioner);
    const out = await ok(call, 'list_entity_types', {});
    const types = out.entity_types as { name: string; readable: boolean }[];
    for (const type of types) expect(type.readable, type.name).toBe(await readable(call, type.name));
    expect(types.find((x) => x.name === 'care_plans')?.readable).toBe(false);
  });

  test('check_availability and next_available_slot: free slots only, no patient and no billing', async () => {
    const call = connectorCall(t, practitioner);
    const [appt] = (await t.api.get('/appointments?page_size=1&sort=id')).body.data;
    const base = { location_id: appt.location_id, appointment_type_id: appt.appointment_type_id };
    const slots = await ok(call, 'check_availability', base);
    const next = await ok(call, 'next_available_slot', base);
    const slotKeys = Object.keys(slotSchema.shape);
    for (const slot of [...(slots.data as Rec[]), ...(next.slot ? [next.slot as Rec] : [])])
      expect(slotKeys).toEqual(expect.arrayContaining(Object.keys(slot)));
    for (const out of [slots, next]) {
      expect(patientIdsIn(out)).toEqual([]);
      expectNoBilling(out);
    }
  });

  test('over the MCP endpoint: patient_summary and every other curated tool hold to the same direct reads', async () => {
    const call = await httpCall(t, practitioner);
    const s = await expectSummaryLikeDirectReads(call, patientId);
    expect(s.active_care_plans).toBeNull();
    expectOwnOnly(s);
    expectNoBilling(s);
    const own = s.patient as Rec;
    const found = (await ok(call, 'find_patient', { name: String(own.last_name) })).data as Rec[];
    for (const p of found) await expectDirect(call, 'patients', p);
    const [appt] = (await t.api.get(`/appointments?practitioner_id=eq:${practitionerId}&page_size=1&sort=id`)).body
      .data;
    const schedule = await ok(call, 'practitioner_schedule', {
      practitioner_id: practitionerId,
      date: appt.starts_at.slice(0, 10),
      days: 7,
    });
    expect((schedule.appointments as Rec[]).length).toBeGreaterThan(0);
    for (const a of schedule.appointments as Rec[]) await expectDirect(call, 'appointments', a);
    for (const out of [found, schedule]) {
      expectOwnOnly(out);
      expectNoBilling(out);
    }
  });
});

describe('a member who reads every patient but not billing', () => {
  test("care plans: billing is withheld (null) in get_entity, query_entities and patient_summary alike; the members' ids stay (scope all)", async () => {
    const member = await memberWith(t, 'receptionist', ['patients.read', 'appointments.read'], 'all', null);
    const call = connectorCall(t, member);
    const listed = (await ok(call, 'query_entities', { entity_type: 'care_plans', page_size: 100 })).data as Rec[];
    expect(listed.length).toBeGreaterThan(0);
    for (const plan of listed) {
      expect(plan.billing, `care plan ${String(plan.id)}`).toBeNull();
      await expectDirect(call, 'care_plans', plan);
    }
    // Nor can it be probed by filtering or sorting.
    expect(await call('query_entities', { entity_type: 'care_plans', filters: { billing: 'not-null' } })).toEqual({
      ok: false,
      code: 'permission_denied',
    });
    expect(await call('query_entities', { entity_type: 'care_plans', sort: 'name,billing:desc' })).toEqual({
      ok: false,
      code: 'permission_denied',
    });
    const s = await expectSummaryLikeDirectReads(call, patientId);
    expect((s.active_care_plans as Rec[]).map((p) => p.id)).toContain(planId);
    expect(patientIdsIn(s)).toContain(strangerOnPlan);
    expectNoBilling(s);
    const types = (await ok(call, 'list_entity_types', {})).entity_types as {
      name: string;
      attributes: { name: string; nullable: boolean }[];
    }[];
    expect(types.find((x) => x.name === 'care_plans')?.attributes.find((a) => a.name === 'billing')?.nullable).toBe(
      true,
    );
  });
});

describe('hostile tool arguments', () => {
  test('a NUL in any argument is validation_failed over the endpoint, the same on both databases', async () => {
    const call = await httpCall(t, practitioner);
    expect(await call('find_patient', { name: 'Ad\u0000a' })).toEqual({ ok: false, code: 'validation_failed' });
    expect(
      await call('query_entities', { entity_type: 'patients', filters: { last_name: 'contains:a\u0000bc' } }),
    ).toEqual({ ok: false, code: 'validation_failed' });
  });

  test('a lone surrogate in any argument is validation_failed too', async () => {
    const call = await httpCall(t, practitioner);
    expect(await call('find_patient', { name: 'Ad\udfffa' })).toEqual({ ok: false, code: 'validation_failed' });
    expect(
      await call('query_entities', { entity_type: 'patients', filters: { 'last\ud800name': 'contains:a' } }),
    ).toEqual({ ok: false, code: 'validation_failed' });
  });
});
