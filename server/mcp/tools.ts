/**
 * The MCP tools, declared as data in the order they are listed. The generic ones are generated from
 * the resource declarations (the same fields, filters and sorts as REST, /schema and OpenAPI); the
 * curated ones compose the same list engine and domain functions. Every read runs as the approving
 * member: their role's read permissions and record scope (server/auth/record-scope.ts). A curated tool
 * reads every record it returns, nested ones included, through `query` as the generic tools do, so it
 * shows nothing a direct read by the member would refuse or withhold.
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { calendarDay } from '../values/calendar';
import { carePlanMembers } from '../../db/schema';
import { authorize } from '../auth/permissions';
import { outsideScopeMessage, readRestriction, redactRecord, withheldFields } from '../auth/record-scope';
import { findAvailability } from '../domain/scheduling/availability';
import { ApiError, notFound } from '../errors';
import { listRecords, PAGE_SIZE_MAX, rawQuery, type ListResult } from '../list/engine';
import { DEFAULT_ORDER, RESERVED_PARAMS } from '../list/grammar';
import { availabilityQuery, MAX_RANGE_DAYS, slotSchema } from '../resources/availability';
import type { AnyResource } from '../resources/define';
import { filterOperators } from '../resources/describe';
import { SCAN_LIMIT, scanningOperators } from '../list/scans';
import { RESOURCES } from '../resources';
import { accountCountry, searchKeyIn } from '../values/phone';
import { addDays, clockFor } from '../values/wall-time';
import type { Connector } from './connector';
import { recordId } from '../resources/fields';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(c: Connector, input: z.output<I>): Promise<z.output<O>>;
}

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const tool = <I extends z.ZodObject, O extends z.ZodType>(t: Tool<I, O>): Tool => t as unknown as Tool;

const LISTED = Object.values(RESOURCES).filter((r) => r.list);
const entityType = z
  .enum(LISTED.map((r) => r.name) as [string, ...string[]])
  .describe('A resource name from list_entity_types, e.g. patients');
const record = z.record(z.string(), z.unknown());
const id = recordId;

function resourceOf(name: string): AnyResource {
  const r = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  if (!r || !r.list) throw new ApiError('not_found', `Unknown entity type ${name}: see list_entity_types`);
  return r;
}

/**
 * A list through the engine, as the member may see it: their record scope narrows the rows, and the
 * attributes their role may not read are null (and cannot be filtered or sorted by); `next_cursor`
 * continues it.
 */
async function query(c: Connector, resource: AnyResource, params: Record<string, string | string[]>) {
  const restrict = readRestriction(resource, c.member, c.account.id);
  const sorted = typeof params.sort === 'string' ? params.sort.split(',').map((s) => s.split(':')[0].trim()) : [];
  const named = withheldFields(resource, c.member).find(
    ({ field }) => Object.hasOwn(params, field) || sorted.includes(field),
  );
  if (named)
    throw new ApiError(
      'permission_denied',
      `Your role does not allow filtering or sorting ${resource.name} by ${named.field}: it needs the permission "${named.permission}"`,
    );
  const result: ListResult = await listRecords(
    resource,
    { db: c.db.db, accountId: c.account.id, region: c.account.region, url: `${c.baseUrl}/${resource.name}`, restrict },
    rawQuery(params),
  );
  const next = result.links.next ? new URL(result.links.next).searchParams.get('cursor') : null;
  return {
    data: result.data.map((r) => redactRecord(resource, c.member, r)),
    next_cursor: next,
    has_more: next !== null,
  };
}

/** Every record of a list, page after page, as the member may see it. */
async function queryAll(c: Connector, resource: AnyResource, params: Record<string, string | string[]>) {
  const rows: Record<string, unknown>[] = [];
  let cursor = '';
  do {
    const page = await query(c, resource, { ...params, page_size: String(PAGE_SIZE_MAX), cursor });
    rows.push(...page.data);
    cursor = page.next_cursor ?? '';
  } while (cursor);
  return rows;
}

/** Whether the member may read the resource at all: false where a direct read is refused (403 permission_denied). */
function mayRead(c: Connector, resource: AnyResource): boolean {
  try {
    readRestriction(resource, c.member, c.account.id);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'permission_denied') return false;
    throw err;
  }
}

/**
 * One record as the member may read it. A record the member's scope leaves out is 403
 * permission_denied, as the spec's error table says (the ids are the clinic's own, and the member is
 * its staff: that the record exists is no secret kept from them); one that does not exist is 404. Only
 * then is it looked for again without the scope, to tell the two apart; nothing of it is returned.
 */
async function getOne(c: Connector, resource: AnyResource, recordId: number | string) {
  const one = { id: `eq:${recordId}`, page_size: '1' };
  const { data } = await query(c, resource, one);
  if (data[0]) return data[0];
  if (readRestriction(resource, c.member, c.account.id)) {
    const whole = await listRecords(
      resource,
      { db: c.db.db, accountId: c.account.id, url: `${c.baseUrl}/${resource.name}` },
      rawQuery(one),
    );
    if (whole.data.length) throw new ApiError('permission_denied', outsideScopeMessage(c.member, resource.singular));
  }
  throw notFound(resource.singular[0].toUpperCase() + resource.singular.slice(1));
}

/** The member's own practitioner, when their scope limits them to their own calendar. */
function calendarPractitioner(c: Connector, asked: number | undefined): number | undefined {
  if (c.member.record_scope !== 'own_calendar') return asked;
  const own = c.member.practitioner_id;
  if (!own || (asked !== undefined && asked !== own))
    throw new ApiError('permission_denied', "Your role sees only its own practitioner's calendar");
  return own;
}

const pageOutput = z.object({ data: z.array(record), next_cursor: z.string().nullable(), has_more: z.boolean() });

export const TOOLS: Tool[] = [
  tool({
    name: 'list_entity_types',
    title: 'List entity types',
    description:
      'Lists the record types of this clinic that can be queried (patients, appointments, invoices, ...), each with its attributes, the attributes it can be filtered and sorted by, and the filter operators. Call this first to learn the names query_entities and get_entity take.',
    input: z.object({}),
    output: z.object({
      entity_types: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          readable: z.boolean(),
          attributes: z.array(
            z.object({ name: z.string(), type: z.string(), nullable: z.boolean(), description: z.string().optional() }),
          ),
          filters: z.record(z.string(), z.array(z.string())),
          scans: z.record(z.string(), z.array(z.string())),
          sorts: z.array(z.string()),
        }),
      ),
      filter_syntax: z.string(),
    }),
    annotations: READ,
    async run(c) {
      return {
        entity_types: LISTED.map((r) => {
          const withheld = new Map(withheldFields(r, c.member).map((w) => [w.field, w.permission]));
          const describe = (name: string, description: string | undefined) => {
            const why = withheld.has(name)
              ? `Always null for you: your role lacks the permission "${withheld.get(name)}".`
              : undefined;
            const text = [description, why].filter(Boolean).join(' ');
            return text ? { description: text } : {};
          };
          return {
            name: r.name,
            description: r.description,
            readable: mayRead(c, r),
            attributes: Object.entries(r.fields).map(([name, f]) => ({
              name,
              type: f.kind,
              nullable: f.nullable || withheld.has(name),
              ...describe(name, f.description),
            })),
            filters: Object.fromEntries(Object.entries(r.filters).map(([name, f]) => [name, filterOperators(f)])),
            // The operators no index serves, per attribute (server/list/scans.ts), as /schema and OpenAPI state them.
            scans: Object.fromEntries(
              Object.entries(r.filters).flatMap(([name, f]) => {
                const ops = scanningOperators(r, name, f, filterOperators(f));
                return ops.length ? [[name, ops]] : [];
              }),
            ),
            sorts: Object.entries(r.fields)
              .filter(([, f]) => f.sortable)
              .map(([k]) => k),
          };
        }),
        filter_syntax:
          'filters: { attribute: "operator:value" } with the operators listed per attribute (a bare value is eq; in/not-in take comma-separated values; between takes two). Several conditions on one attribute: an array. ' +
          `scans: the operators per attribute that read every one of the clinic's rows (as do metadata filters): a query whose filters all scan is refused on clinics with more than ${SCAN_LIMIT.rows.toLocaleString('en')} of those records; add a filter an index serves.`,
      };
    },
  }),
  tool({
    name: 'query_entities',
    title: 'Query records',
    description:
      'Lists records of one entity type with filters, sorting and paging, exactly like the REST list endpoints. Example: entity_type "appointments", filters {"practitioner_id": "eq:3", "starts_at": "gte:2026-12-01T00:00:00"}, sort "starts_at". Continue with next_cursor while has_more is true.',
    input: z.object({
      entity_type: entityType,
      filters: z
        .record(z.string(), z.union([z.string(), z.array(z.string()).max(10)]))
        .optional()
        .describe('attribute → "operator:value" (or an array of them, ANDed)'),
      sort: z.string().max(200).optional().describe(`attr[:asc|desc][,attr[:asc|desc]]. ${DEFAULT_ORDER}`),
      page_size: z.number().int().min(1).max(PAGE_SIZE_MAX).default(25),
      cursor: z.string().max(2000).optional().describe('next_cursor of the previous page'),
    }),
    output: pageOutput,
    annotations: READ,
    run(c, input) {
      const filters = input.filters ?? {};
      const reserved = Object.keys(filters).find((k) => RESERVED_PARAMS.has(k));
      if (reserved)
        throw new ApiError(
          'validation_failed',
          `${reserved} is not a filter: use the tool's own ${reserved === 'page' ? 'cursor' : reserved} argument`,
          { filters: [`${reserved} is reserved`] },
        );
      return query(c, resourceOf(input.entity_type), {
        ...filters,
        ...(input.sort ? { sort: input.sort } : {}),
        page_size: String(input.page_size),
        cursor: input.cursor ?? '',
      });
    },
  }),
  tool({
    name: 'get_entity',
    title: 'Get one record',
    description: 'Reads one record of an entity type by its id (events: the event id string).',
    input: z.object({ entity_type: entityType, id: z.union([id, z.string().max(64)]) }),
    output: z.object({ data: record }),
    annotations: READ,
    async run(c, input) {
      return { data: await getOne(c, resourceOf(input.entity_type), input.id) };
    },
  }),
  tool({
    name: 'write_entity',
    title: 'Write a record (not available)',
    description:
      'Creates, updates or deletes a record. The MCP server is read-only at present: every call returns an error saying so. Use the REST API with a read & write key for writes.',
    input: z.object({
      entity_type: entityType,
      operation: z.enum(['create', 'update', 'delete']),
      id: id.optional(),
      attributes: record.optional(),
    }),
    output: z.object({ data: record }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run() {
      throw new ApiError(
        'unsupported_operation',
        'The MCP server is read-only at present: no record was written. Writes go through the REST API with a read & write key.',
      );
    },
  }),
  tool({
    name: 'check_availability',
    title: 'Check availability',
    description:
      'Free bookable slots of one appointment type at one location over up to 31 days (the REST GET /availability search). Times are clinic wall times in the account timezone.',
    input: z.object({
      location_id: id,
      appointment_type_id: id,
      practitioner_id: id.optional(),
      from: calendarDay().optional().describe('First day, default today'),
      to: calendarDay().optional().describe('Last day, inclusive; at most 31 days after from'),
      limit: z.number().int().min(1).max(500).default(50),
    }),
    output: z.object({
      data: z.array(slotSchema),
      meta: z.object({ from: z.string(), to: z.string(), timezone: z.string(), total: z.number().int() }),
    }),
    annotations: READ,
    async run(c, input) {
      authorize(c.member, 'appointments.read');
      const q = availabilityQuery.parse({ ...input, practitioner_id: calendarPractitioner(c, input.practitioner_id) });
      const found = await findAvailability(c.db.db, c.account, q);
      return {
        data: found.data,
        meta: { from: found.meta.from, to: found.meta.to, timezone: found.meta.timezone, total: found.meta.total },
      };
    },
  }),
  tool({
    name: 'find_patient',
    title: 'Find a patient',
    description:
      'Finds patients by name (part of a first or last name, or "first last"), email, phone number or date of birth. Give at least one. Returns up to 20 matches.',
    input: z.object({
      name: z.string().min(2).max(100).optional(),
      email: z.string().max(255).optional(),
      phone: z.string().max(40).optional(),
      dob: calendarDay().optional(),
    }),
    output: z.object({ data: z.array(record) }),
    annotations: READ,
    async run(c, input) {
      const patients = RESOURCES.patients;
      const base: Record<string, string> = { page_size: '20', sort: 'last_name,first_name' };
      if (input.email) base.email = `eq:${input.email.trim().toLowerCase()}`;
      if (input.dob) base.dob = `eq:${input.dob}`;
      if (input.phone) {
        const digits = input.phone.replace(/\D/g, '');
        if (digits.length < 4)
          throw new ApiError('validation_failed', 'phone needs at least 4 digits', { phone: ['at least 4 digits'] });
        // Stored numbers are searched by their key (E.164 in the account's country, else the digits): the
        // phone asked for is read the same way, so any spelling of a number finds it, through the index.
        const numbers = await query(c, RESOURCES.numbers, {
          phone: `eq:${searchKeyIn(input.phone, accountCountry(c.account))}`,
          page_size: '100',
        });
        const ids = [...new Set(numbers.data.map((n) => Number(n.patient_id)))];
        if (!ids.length) return { data: [] };
        base.id = `in:${ids.slice(0, 100).join(',')}`;
      }
      const words = input.name?.trim().split(/\s+/) ?? [];
      if (!words.length && Object.keys(base).length === 2)
        throw new ApiError('validation_failed', 'Give a name, email, phone or dob', {
          name: ['give at least one of name, email, phone, dob'],
        });
      if (words.length >= 2)
        return {
          data: (
            await query(c, patients, {
              ...base,
              first_name: `contains:${words[0]}`,
              last_name: `contains:${words.slice(1).join(' ')}`,
            })
          ).data,
        };
      if (words.length === 1) {
        const [byLast, byFirst] = [
          await query(c, patients, { ...base, last_name: `contains:${words[0]}` }),
          await query(c, patients, { ...base, first_name: `contains:${words[0]}` }),
        ];
        const seen = new Set<unknown>();
        return {
          data: [...byLast.data, ...byFirst.data].filter((p) => !seen.has(p.id) && seen.add(p.id)).slice(0, 20),
        };
      }
      return { data: (await query(c, patients, base)).data };
    },
  }),
  tool({
    name: 'patient_summary',
    title: 'Patient summary',
    description:
      "One patient's details with their next and most recent appointments, open balance and active care plans. Each part is what get_entity/query_entities would give you: parts your role or record scope may not read are null (care plans with members cannot be narrowed to your own patients), and so are attributes it may not read (a care plan's billing without Read billing).",
    input: z.object({ patient_id: id }),
    output: z.object({
      patient: record,
      upcoming_appointments: z.array(record).nullable(),
      recent_appointments: z.array(record).nullable(),
      open_balance: z.string().nullable().describe('Sum of the balances of open invoices, in the account currency'),
      open_invoices: z.number().int().nullable(),
      active_care_plans: z.array(record).nullable(),
    }),
    annotations: READ,
    async run(c, input) {
      // Every part is read through `query`, as get_entity/query_entities read it for this member; a part
      // whose direct read the member is refused is null.
      const patient = await getOne(c, RESOURCES.patients, input.patient_id);
      const now = clockFor(c.account.timezone).toWall(Date.now());
      const appts = RESOURCES.appointments;
      const forPatient = { patient_id: `eq:${input.patient_id}`, page_size: '5' };
      const upcoming = mayRead(c, appts)
        ? (await query(c, appts, { ...forPatient, starts_at: `gte:${now}`, sort: 'starts_at' })).data
        : null;
      const recent = mayRead(c, appts)
        ? (await query(c, appts, { ...forPatient, starts_at: `lt:${now}`, sort: 'starts_at:desc' })).data
        : null;
      let balance: string | null = null;
      let openInvoices: number | null = null;
      if (mayRead(c, RESOURCES.invoices)) {
        const invoices = await queryAll(c, RESOURCES.invoices, {
          patient_id: `eq:${input.patient_id}`,
          state: 'in:open,partially_paid',
          sort: 'id',
        });
        const minor = invoices.reduce((sum, inv) => sum + Math.round(Number(inv.balance) * 100), 0);
        balance = (minor / 100).toFixed(2);
        openInvoices = invoices.length;
      }
      // A care plan names all its members: shown only to a member who may read care_plans directly
      // (own_patients cannot: 403), with the billing their role may read.
      let plans: Record<string, unknown>[] | null = null;
      if (mayRead(c, RESOURCES.care_plans)) {
        const memberships = await c.db.db
          .select({ plan: carePlanMembers.care_plan_id })
          .from(carePlanMembers)
          .where(and(eq(carePlanMembers.account_id, c.account.id), eq(carePlanMembers.patient_id, input.patient_id)));
        const ids = [...new Set(memberships.map((m) => m.plan))].sort((a, b) => a - b);
        plans = [];
        for (let i = 0; i < ids.length; i += 100) {
          plans.push(
            ...(await queryAll(c, RESOURCES.care_plans, {
              id: `in:${ids.slice(i, i + 100).join(',')}`,
              status: 'eq:active',
              sort: 'id',
            })),
          );
        }
      }
      return {
        patient,
        upcoming_appointments: upcoming,
        recent_appointments: recent,
        open_balance: balance,
        open_invoices: openInvoices,
        active_care_plans: plans,
      };
    },
  }),
  tool({
    name: 'practitioner_schedule',
    title: "A practitioner's schedule",
    description:
      "A practitioner's appointments for a day or a week from a date (default today), in start order, cancelled ones included with their status. Members limited to their own calendar see only their own.",
    input: z.object({
      practitioner_id: id.optional().describe("Default: the member's own practitioner"),
      date: calendarDay().optional(),
      days: z.union([z.literal(1), z.literal(7)]).default(1),
    }),
    output: z.object({
      practitioner_id: z.number().int(),
      from: z.string(),
      to: z.string(),
      appointments: z.array(record),
      truncated: z.boolean(),
    }),
    annotations: READ,
    async run(c, input) {
      const practitioner = calendarPractitioner(c, input.practitioner_id) ?? c.member.practitioner_id;
      if (!practitioner)
        throw new ApiError('validation_failed', 'practitioner_id is required (you are not linked to a practitioner)', {
          practitioner_id: ['required'],
        });
      const from = input.date ?? clockFor(c.account.timezone).today();
      const to = addDays(from, input.days);
      const page = await query(c, RESOURCES.appointments, {
        practitioner_id: `eq:${practitioner}`,
        starts_at: [`gte:${from}T00:00:00`, `lt:${to}T00:00:00`],
        sort: 'starts_at',
        page_size: String(PAGE_SIZE_MAX),
        cursor: '',
      });
      return {
        practitioner_id: practitioner,
        from,
        to: addDays(to, -1),
        appointments: page.data,
        truncated: page.has_more,
      };
    },
  }),
  tool({
    name: 'next_available_slot',
    title: 'Next available slot',
    description: `The first free slot of an appointment type at a location (optionally with one practitioner), searching ${MAX_RANGE_DAYS} days from a date (default today). null when nothing is free in that range.`,
    input: z.object({
      location_id: id,
      appointment_type_id: id,
      practitioner_id: id.optional(),
      from: calendarDay().optional(),
    }),
    output: z.object({ slot: slotSchema.nullable(), searched_from: z.string(), searched_to: z.string() }),
    annotations: READ,
    async run(c, input) {
      authorize(c.member, 'appointments.read');
      const from = input.from ?? clockFor(c.account.timezone).today();
      const to = addDays(from, MAX_RANGE_DAYS - 1);
      const q = availabilityQuery.parse({
        location_id: input.location_id,
        appointment_type_id: input.appointment_type_id,
        practitioner_id: calendarPractitioner(c, input.practitioner_id),
        from,
        to,
        limit: 1,
      });
      const found = await findAvailability(c.db.db, c.account, q);
      return { slot: found.data[0] ?? null, searched_from: from, searched_to: to };
    },
  }),
];
