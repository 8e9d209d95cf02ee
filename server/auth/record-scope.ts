/**
 * A member's record scope applied to reads (AI connectors act as a member): `all`; `own_patients`,
 * the patients with an appointment with the member's practitioner and the records of those patients;
 * `own_calendar`, only that practitioner's appointments. Each rule is a condition the list engine adds
 * to every query of the resource, so counts, filters and cursors all see the same narrowed set.
 * Attributes of another permission area than their record's (a care plan's billing) are withheld:
 * `withheldFields` names them, and every read a member makes shows them as null.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
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

/** The patients of the member's practitioner, as a subquery. */
function ownPatients(accountId: number, practitionerId: number): SQL {
  return sql`(select ${appointments.patient_id} from ${appointments} where ${and(eq(appointments.account_id, accountId), eq(appointments.practitioner_id, practitionerId), isNull(appointments.deleted_at))})`;
}

/**
 * What the member may read of a resource: undefined (everything of the account), a restriction, or
 * 403 permission_denied (the role lacks the read permission, or the scope cannot narrow this resource).
 */
export function readRestriction(resource: AnyResource, member: MemberPrincipal, accountId: number): Restriction | undefined {
  if (resource.area) authorize(member, `${resource.area}.read`);
  const practitioner = member.practitioner_id;
  const key = `${member.record_scope}:${practitioner ?? 'none'}`;
  if (member.record_scope === 'own_calendar') {
    if (resource.name !== 'appointments') return undefined;
    const column = resource.column('practitioner_id');
    return { key, condition: practitioner && column ? eq(column, practitioner) : NOTHING };
  }
  if (member.record_scope !== 'own_patients' || !resource.area) return undefined;
  const patientColumn = resource.name === 'patients' ? resource.table.id : resource.column('patient_id');
  if (!patientColumn) {
    throw new ApiError('permission_denied', `Your role reads only its own patients' records, and ${resource.name} cannot be narrowed to them: read them through a patient or an invoice`);
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
export function redactRecord<T extends Record<string, unknown>>(resource: AnyResource, member: MemberGrant, record: T): T {
  const withheld = withheldFields(resource, member);
  if (!withheld.length) return record;
  const out: Record<string, unknown> = { ...record };
  for (const { field } of withheld) if (Object.hasOwn(out, field)) out[field] = null;
  return out as T;
}
