/**
 * A member's record scope applied to reads (AI connectors act as a member): `all`; `own_patients`,
 * the patients with an appointment with the member's practitioner and the records of those patients;
 * `own_calendar`, only that practitioner's appointments and availability rows (and the location-wide
 * ones, which close their time too). Each rule is a condition the list engine adds to every query of
 * the resource, so counts, filters and cursors all see the same narrowed set. What a restricted scope
 * cannot narrow is refused (403 permission_denied), never shown whole: under own_patients, patients
 * records without a patient_id; under either, the events feed and deleted_entities.
 * Attributes of another permission area than their record's (a care plan's billing) are withheld:
 * `withheldFields` names them, and every read a member makes shows them as null.
 */
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { appointments } from '../../db/schema';
import type { MemberPrincipal } from '../context';
import { ApiError } from '../errors';
import type { AnyResource, RecordArea } from '../resources/define';
import { authorize, can, PERMISSIONS, type MemberGrant } from './permissions';

/** A condition and the key that names it (the list engine prepares one statement per key). */
export interface Restriction {
  key: string;
  condition: SQL;
}

const NOTHING: SQL = sql`1 = 0`;

/**
 * Feeds that name records of every patient and practitioner by id, deleted ones included, so no
 * condition ties a row to the member's patients or calendar: a restricted scope may not read them.
 */
const UNNARROWABLE_FEEDS: ReadonlySet<string> = new Set(['events', 'deleted_entities']);

/** Why a restricted scope refuses a single record it exists but may not read (the spec's 403). */
export function outsideScopeMessage(member: MemberPrincipal, singular: string): string {
  return member.record_scope === 'own_calendar'
    ? `This ${singular} is outside your record scope: your role sees only its own practitioner's calendar`
    : `This ${singular} is outside your record scope: your role reads only its own patients' records`;
}

/** The patients of the member's practitioner, as a subquery. */
function ownPatients(accountId: number, practitionerId: number): SQL {
  return sql`(select ${appointments.patient_id} from ${appointments} where ${and(eq(appointments.account_id, accountId), eq(appointments.practitioner_id, practitionerId), isNull(appointments.deleted_at))})`;
}

/**
 * What the member may read of a resource: undefined (everything of the account), a restriction, or
 * 403 permission_denied (the role lacks the read permission, or the scope cannot narrow this resource).
 */
export function readRestriction(
  resource: AnyResource,
  member: MemberPrincipal,
  accountId: number,
): Restriction | undefined {
  if (resource.area) authorize(member, `${resource.area}.read`);
  if (member.record_scope === 'all') return undefined;
  if (UNNARROWABLE_FEEDS.has(resource.name)) {
    throw new ApiError(
      'permission_denied',
      `Your role's record scope (${member.record_scope}) cannot read ${resource.name}: it names records of every patient and practitioner. Read the records themselves`,
    );
  }
  const practitioner = member.practitioner_id;
  const key = `${member.record_scope}:${practitioner ?? 'none'}`;
  if (member.record_scope === 'own_calendar') {
    const column = resource.column('practitioner_id');
    if (resource.name === 'appointments')
      return { key, condition: practitioner && column ? eq(column, practitioner) : NOTHING };
    // A row without a practitioner closes a whole location, this practitioner's time included.
    if (resource.name === 'practitioner_availabilities')
      return { key, condition: practitioner && column ? or(eq(column, practitioner), isNull(column))! : NOTHING };
    return undefined;
  }
  if (member.record_scope !== 'own_patients' || !resource.area) return undefined;
  const patientColumn = resource.name === 'patients' ? resource.table.id : resource.column('patient_id');
  if (!patientColumn) {
    throw new ApiError(
      'permission_denied',
      `Your role reads only its own patients' records, and ${resource.name} cannot be narrowed to them: read them through a patient or an invoice`,
    );
  }
  return { key, condition: practitioner ? sql`${patientColumn} in ${ownPatients(accountId, practitioner)}` : NOTHING };
}

/**
 * Attributes that belong to another permission area than their resource: a care plan is a patients
 * record, but its `billing` (type, amount, period) is billing. Keyed by resource name.
 */
const FIELD_AREAS: Readonly<Record<string, Readonly<Record<string, RecordArea>>>> = {
  care_plans: { billing: 'billing' },
};

/** The attributes of a resource the member's role may not read, each with the permission it lacks. */
export function withheldFields(resource: AnyResource, member: MemberGrant): { field: string; permission: string }[] {
  const areas = Object.hasOwn(FIELD_AREAS, resource.name) ? FIELD_AREAS[resource.name] : {};
  return Object.entries(areas)
    .filter(([, area]) => !can(member, `${area}.read`))
    .map(([field, area]) => ({ field, permission: PERMISSIONS[`${area}.read`] }));
}

/** A record as the member may read it: the withheld attributes null (present, so the shape stays). */
export function redactRecord<T extends Record<string, unknown>>(
  resource: AnyResource,
  member: MemberGrant,
  record: T,
): T {
  const withheld = withheldFields(resource, member);
  if (!withheld.length) return record;
  const out: Record<string, unknown> = { ...record };
  for (const { field } of withheld) if (Object.hasOwn(out, field)) out[field] = null;
  return out as T;
}
