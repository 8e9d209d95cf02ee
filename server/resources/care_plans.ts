import { z } from 'zod';
import * as t from '../../db/schema';
import { fromDbJson } from '../../db/dialect';
import type { Embed } from '../../db/json';
import { formatMoney } from '../values/money';
import { defineResource } from './define';
import { f, standardFields } from './fields';

const member = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  schedule_override: z
    .object({ schedule_id: z.number().int().optional(), visits_planned: z.number().int().optional() })
    .nullable()
    .describe('This member follows another schedule or visit count than the plan'),
});

// Members of live patients.
const MEMBERS: Embed = {
  fields: {
    id: 'm.id',
    patient_id: 'm.patient_id',
    schedule_override: 'm.schedule_override',
    visits_used: 'm.visits_used',
  },
  from: 'care_plan_members m JOIN patients p ON p.account_id = m.account_id AND p.id = m.patient_id AND p.deleted_at IS NULL',
  account: 'm.account_id',
  key: 'm.care_plan_id',
  orderBy: 'm.id',
  kinds: { schedule_override: 'json' },
};

export const carePlans = defineResource({
  name: 'care_plans',
  singular: 'care plan',
  permission: 'clinical',
  area: 'patients',
  description:
    'Care plans: programmes of visits with billing and members. A list row carries billing, schedules and members; GET /care_plans/{id} adds phases, tracking, billing periods, services and products. Read-only.',
  table: t.carePlans,
  embeds: { members: MEMBERS },
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true }),
    description: f.string({ nullable: true }),
    status: f.enum(['draft', 'active', 'archived'], { filterable: true }),
    tag_id: f.ref({
      nullable: true,
      filterable: true,
      description: 'The tag the plan places on its members (not removable: tag_locked)',
    }),
    billing: f.object(
      z.object({
        type: z.enum(['upfront', 'per_period', 'per_visit']),
        amount: z.string().describe('Decimal amount in the account currency'),
        period: z.enum(['week', 'month']).nullable(),
      }),
      { column: false },
    ),
    schedules: f.array(
      z.array(z.object({ id: z.number().int(), name: z.string(), visits_planned: z.number().int() })),
      { column: false },
    ),
    members: f.array(z.array(member), { column: false }),
    ...standardFields(),
  },
  compute: (row) => {
    const billing = fromDbJson<t.CarePlanBilling>(row.billing);
    const schedules = fromDbJson<t.CarePlanSchedule[]>(row.schedules);
    const members = fromDbJson<z.infer<typeof member>[] | null>(row.members) ?? [];
    return {
      billing: { type: billing.type, amount: formatMoney(billing.amount_minor), period: billing.period },
      schedules: schedules.map((s) => ({ id: s.id, name: s.name, visits_planned: s.visits_planned })),
      members: members.map((m) => ({
        id: m.id,
        patient_id: m.patient_id,
        schedule_override: m.schedule_override ?? null,
      })),
    };
  },
});
