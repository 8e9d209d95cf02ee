/**
 * Record scopes over every MCP tool, generic and curated, for both restricted scopes: own_patients
 * (the patients with an appointment with the member's practitioner, and their records) and
 * own_calendar (that practitioner's appointments and availability rows, and the location-wide rows).
 * What a scope narrows, a list shows exactly as the whole-clinic view filtered by the scope; what it
 * cannot narrow is refused (403 permission_denied); a single record outside the scope is 403
 * permission_denied (the spec's error table), one that does not exist 404 not_found.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { appointments } from '../../db/schema';
import type { Permission } from '../auth/permissions';
import type { MemberPrincipal } from '../context';
import { activeMember } from '../auth/members';
import { useClinic } from './helpers';
import { connectorCall, httpCall, memberWith, ok, type Call, type Rec } from './support/mcp-tools';
import { addMember } from './support/portal';

const t = useClinic({ seed: true });

type Scope = 'own_patients' | 'own_calendar';
const SCOPES: Scope[] = ['own_patients', 'own_calendar'];
const READS: Permission[] = ['patients.read', 'appointments.read', 'billing.read', 'connectors.manage'];
const NO_SUCH_ID = 2_000_000_000;

/** What each scope refuses outright: records it cannot narrow (no patient_id under own_patients) and the feeds naming everyone's records. */
const REFUSED: Record<Scope, string[]> = {
  own_patients: [
    'addresses',
    'care_plans',
    'deleted_entities',
    'events',
    'line_items',
    'patient_log_tags',
    'payment_allocations',
    'refunds',
  ],
  own_calendar: ['deleted_entities', 'events'],
};

/** The member's practitioner, one of theirs and one who is not. */
let practitionerId: number;
let otherAppointment: Rec;
let ownAppointment: Rec;
/** Patients with a (live) appointment with the practitioner. */
let ownPatients: Set<number>;
let strangerId: number;
/** The whole-clinic view, through the same tools (an admin: every permission, scope all). */
let whole: Call;
const members = {} as Record<Scope, MemberPrincipal>;

/** Whether a record is the member's under a scope: the rule the server applies, written out. */
function inScope(scope: Scope, resource: string, row: Rec): boolean {
  if (scope === 'own_calendar') {
    if (resource === 'appointments') return row.practitioner_id === practitionerId;
    if (resource === 'practitioner_availabilities')
      return row.practitioner_id === practitionerId || row.practitioner_id === null;
    return true;
  }
  if (resource === 'patients') return ownPatients.has(row.id as number);
  if (resource === 'practitioner_availabilities') return true;
  return !('patient_id' in row) || ownPatients.has(row.patient_id as number);
}

/** Every record of a list, following next_cursor; or the error code. */
async function everything(
  call: Call,
  entityType: string,
  filters: Rec = {},
): Promise<{ ok: true; rows: Rec[] } | { ok: false; code: string }> {
  const rows: Rec[] = [];
  let cursor: string | undefined;
  do {
    const page = await call('query_entities', {
      entity_type: entityType,
      filters,
      sort: 'id',
      page_size: 100,
      ...(cursor ? { cursor } : {}),
    });
    if (!page.ok) return page;
    rows.push(...(page.data.data as Rec[]));
    cursor = (page.data.next_cursor as string | null) ?? undefined;
  } while (cursor);
  return { ok: true, rows };
}

let entityTypes: string[];

beforeAll(async () => {
  const db = t.server.app.db;
  const admin = await addMember(t.server, t.clinic, 'admin');
  whole = connectorCall(t, (await activeMember(db.db, t.clinic.account.id, admin.id))!);
  const all = (await ok(whole, 'query_entities', { entity_type: 'appointments', sort: 'id', page_size: 100 }))
    .data as Rec[];
  ownAppointment = all[0];
  practitionerId = ownAppointment.practitioner_id as number;
  const theirs = await db.db
    .select({ patient_id: appointments.patient_id })
    .from(appointments)
    .where(
      and(
        eq(appointments.account_id, t.clinic.account.id),
        eq(appointments.practitioner_id, practitionerId),
        isNull(appointments.deleted_at),
      ),
    );
  ownPatients = new Set(theirs.map((a) => a.patient_id));
  otherAppointment = all.find((a) => a.practitioner_id !== practitionerId && !ownPatients.has(a.patient_id as number))!;
  expect(otherAppointment, 'an appointment of another practitioner with a patient who is not theirs').toBeDefined();
  strangerId = otherAppointment.patient_id as number;
  // Two roles, so that each scope has its own (a role's scope applies to all its members).
  members.own_patients = await memberWith(t, 'practitioner', READS, 'own_patients', practitionerId);
  members.own_calendar = await memberWith(t, 'receptionist', READS, 'own_calendar', practitionerId);
  entityTypes = ((await ok(whole, 'list_entity_types', {})).entity_types as { name: string }[]).map((e) => e.name);
});

describe.each(SCOPES)('%s', (scope) => {
  const call = () => connectorCall(t, members[scope]);

  test('list_entity_types and query_entities: every type is narrowed to exactly the whole view within the scope, or refused (403) when it cannot be', async () => {
    const types = (await ok(call(), 'list_entity_types', {})).entity_types as { name: string; readable: boolean }[];
    const refused: string[] = [];
    for (const name of entityTypes) {
      const got = await everything(call(), name);
      expect(types.find((x) => x.name === name)?.readable, name).toBe(got.ok);
      if (!got.ok) {
        expect(got.code, name).toBe('permission_denied');
        refused.push(name);
        continue;
      }
      const all = await everything(whole, name);
      if (!all.ok) throw new Error(`${name}: the whole view is refused`);
      expect(got.rows, name).toEqual(all.rows.filter((r) => inScope(scope, name, r)));
    }
    expect(refused.sort()).toEqual(REFUSED[scope]);
  });

  test('get_entity: a record in scope as the whole view has it; one outside the scope 403 permission_denied; no such record 404', async () => {
    let outside = 0;
    for (const name of entityTypes.filter((n) => !REFUSED[scope].includes(n))) {
      const all = await everything(whole, name);
      if (!all.ok) throw new Error(`${name}: the whole view is refused`);
      const inside = all.rows.find((r) => inScope(scope, name, r));
      const out = all.rows.find((r) => !inScope(scope, name, r));
      if (inside)
        expect(await call()('get_entity', { entity_type: name, id: inside.id as number }), name).toEqual({
          ok: true,
          data: { data: inside },
        });
      if (out) {
        outside++;
        expect(
          await call()('get_entity', { entity_type: name, id: out.id as number }),
          `${name} ${String(out.id)}`,
        ).toEqual({ ok: false, code: 'permission_denied' });
      }
      expect(await call()('get_entity', { entity_type: name, id: NO_SUCH_ID }), name).toEqual({
        ok: false,
        code: 'not_found',
      });
    }
    // The resources a scope narrows: own_patients patients and their records; own_calendar appointments and availability rows.
    expect(outside).toBeGreaterThanOrEqual(scope === 'own_patients' ? 3 : 2);
    for (const name of REFUSED[scope])
      expect(await call()('get_entity', { entity_type: name, id: 1 }), name).toEqual({
        ok: false,
        code: 'permission_denied',
      });
  });

  test('write_entity: unsupported_operation (read-only)', async () => {
    expect(
      await call()('write_entity', {
        entity_type: 'patients',
        operation: 'update',
        id: strangerId,
        attributes: { first_name: 'X' },
      }),
    ).toEqual({ ok: false, code: 'unsupported_operation' });
  });

  test("check_availability and next_available_slot: own_calendar only for its own practitioner (another's is 403); own_patients for anyone", async () => {
    const other = {
      location_id: otherAppointment.location_id,
      appointment_type_id: otherAppointment.appointment_type_id,
      practitioner_id: otherAppointment.practitioner_id,
    };
    const own = { location_id: ownAppointment.location_id, appointment_type_id: ownAppointment.appointment_type_id };
    for (const tool of ['check_availability', 'next_available_slot']) {
      const asOther = await call()(tool, other);
      if (scope === 'own_calendar') expect(asOther, tool).toEqual({ ok: false, code: 'permission_denied' });
      else expect(asOther, tool).toEqual(await whole(tool, other));
    }
    const slots = await ok(call(), 'check_availability', own);
    const next = await ok(call(), 'next_available_slot', own);
    const practitioners = new Set(
      [...(slots.data as Rec[]), ...(next.slot ? [next.slot as Rec] : [])].map((s) => s.practitioner_id),
    );
    if (scope === 'own_calendar') expect([...practitioners].every((p) => p === practitionerId)).toBe(true);
    else expect(slots).toEqual(await ok(whole, 'check_availability', own));
  });

  test('find_patient: own_patients finds only its own patients; own_calendar (a calendar scope) finds any', async () => {
    const stranger = (await ok(whole, 'get_entity', { entity_type: 'patients', id: strangerId })).data as Rec;
    const found = (
      (await ok(call(), 'find_patient', { name: `${String(stranger.first_name)} ${String(stranger.last_name)}` }))
        .data as Rec[]
    ).map((p) => p.id);
    if (scope === 'own_patients') expect(found).not.toContain(strangerId);
    else expect(found).toContain(strangerId);
    const byLast = (await ok(call(), 'find_patient', { name: String(stranger.last_name) })).data as Rec[];
    for (const p of byLast) expect(inScope(scope, 'patients', p), `patient ${String(p.id)}`).toBe(true);
  });

  test('patient_summary: a patient outside own_patients is 403, none is 404; the appointments in it are those of the scope', async () => {
    const strangerSummary = await call()('patient_summary', { patient_id: strangerId });
    if (scope === 'own_patients') expect(strangerSummary).toEqual({ ok: false, code: 'permission_denied' });
    else {
      expect(strangerSummary.ok).toBe(true);
      const s = (strangerSummary as { data: Rec }).data;
      for (const a of [...(s.upcoming_appointments as Rec[]), ...(s.recent_appointments as Rec[])])
        expect(a.practitioner_id).toBe(practitionerId);
    }
    expect(await call()('patient_summary', { patient_id: NO_SUCH_ID })).toEqual({ ok: false, code: 'not_found' });
    const own = await ok(call(), 'patient_summary', { patient_id: ownAppointment.patient_id as number });
    for (const a of [...(own.upcoming_appointments as Rec[]), ...(own.recent_appointments as Rec[])])
      expect(inScope(scope, 'appointments', a)).toBe(true);
  });

  test("practitioner_schedule: own_calendar refuses another practitioner's (403); own diary as the whole view has it; own_patients sees only its patients in another's", async () => {
    const week = (a: Rec) => ({ practitioner_id: a.practitioner_id, date: String(a.starts_at).slice(0, 10), days: 7 });
    const other = await call()('practitioner_schedule', week(otherAppointment));
    if (scope === 'own_calendar') expect(other).toEqual({ ok: false, code: 'permission_denied' });
    else {
      const theirs = (other as { data: Rec }).data.appointments as Rec[];
      const all = (await ok(whole, 'practitioner_schedule', week(otherAppointment))).appointments as Rec[];
      expect(theirs).toEqual(all.filter((a) => inScope(scope, 'appointments', a)));
    }
    const own = await ok(call(), 'practitioner_schedule', week(ownAppointment));
    const all = (await ok(whole, 'practitioner_schedule', week(ownAppointment))).appointments as Rec[];
    expect(own.appointments).toEqual(all.filter((a) => inScope(scope, 'appointments', a)));
    expect((own.appointments as Rec[]).length).toBeGreaterThan(0);
  });

  test('over the MCP endpoint: the same answers (403 outside the scope, refused feeds, narrowed lists)', async () => {
    const http = await httpCall(t, members[scope]);
    const outside =
      scope === 'own_patients'
        ? { entity_type: 'patients', id: strangerId }
        : { entity_type: 'appointments', id: otherAppointment.id as number };
    expect(await http('get_entity', outside)).toEqual({ ok: false, code: 'permission_denied' });
    expect(await http('get_entity', { entity_type: outside.entity_type, id: NO_SUCH_ID })).toEqual({
      ok: false,
      code: 'not_found',
    });
    expect(await http('query_entities', { entity_type: 'events' })).toEqual({ ok: false, code: 'permission_denied' });
    expect(await http('query_entities', { entity_type: 'deleted_entities' })).toEqual({
      ok: false,
      code: 'permission_denied',
    });
    const rows = (await ok(http, 'query_entities', { entity_type: 'practitioner_availabilities', page_size: 100 }))
      .data as Rec[];
    for (const r of rows) expect(inScope(scope, 'practitioner_availabilities', r)).toBe(true);
  });
});
