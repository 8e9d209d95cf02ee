/** The full read of one care plan: schedules with phases and visit tracking, and billing details. */
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { fromDbJson } from '../../db/dialect';
import { billableItems, modalities, type CarePlanBilling, type CarePlanSchedule } from '../../db/schema';
import type { RowType } from '../resources/define';
import { carePlans } from '../resources/care_plans';
import { formatMoney } from '../values/money';

type Member = {
  id: number;
  patient_id: number;
  schedule_override: { schedule_id?: number; visits_planned?: number } | null;
  visits_used: number;
};

const tracking = z.object({
  members: z.number().int(),
  visits_planned: z.number().int(),
  visits_used: z.number().int(),
  visits_remaining: z.number().int(),
});
const line = z.object({
  billable_item_id: z.number().int(),
  name: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: z.string().nullable(),
});

export const carePlanDetailSchema = carePlans.readSchema.extend({
  schedules: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      visits_planned: z.number().int(),
      appointment_type_ids: z.array(z.number().int()),
      auto_sync: z.boolean().describe('Bookings of the members follow the schedule automatically'),
      sync_status: z.enum(['synced', 'pending', 'failed']),
      phases: z.array(
        z.object({
          name: z.string(),
          weeks: z.number().int(),
          visits_per_week: z.number().int(),
          modalities: z.array(z.object({ id: z.number().int(), name: z.string().nullable() })),
        }),
      ),
      tracking,
    }),
  ),
  billing: z.object({
    type: z.enum(['upfront', 'per_period', 'per_visit']),
    amount: z.string(),
    period: z.enum(['week', 'month']).nullable(),
    periods: z.array(z.object({ starts_on: z.string(), ends_on: z.string(), amount: z.string() })),
    services: z.array(line),
    products: z.array(line),
  }),
  tracking: tracking.nullable().describe('Plan-level visit tracking, for a plan without a schedule'),
});

export async function carePlanDetail(db: Db, accountId: number, row: RowType<typeof carePlans>) {
  const summary = carePlans.toRecord(row);
  const billing = fromDbJson<CarePlanBilling>(row.billing);
  const schedules = fromDbJson<CarePlanSchedule[]>(row.schedules);
  const members = fromDbJson<Member[] | null>(row.members) ?? [];
  const modalityIds = [...new Set(schedules.flatMap((s) => s.phases.flatMap((p) => p.modality_ids)))];
  const itemIds = [...new Set([...billing.services, ...billing.products].map((l) => l.billable_item_id))];
  const [mods, items] = await Promise.all([
    modalityIds.length
      ? db
          .select({ id: modalities.id, name: modalities.name })
          .from(modalities)
          .where(and(eq(modalities.account_id, accountId), inArray(modalities.id, modalityIds)))
      : [],
    itemIds.length
      ? db
          .select({ id: billableItems.id, name: billableItems.name, price: billableItems.price_minor })
          .from(billableItems)
          .where(and(eq(billableItems.account_id, accountId), inArray(billableItems.id, itemIds)))
      : [],
  ]);
  const modName = new Map(mods.map((m) => [m.id, m.name]));
  const item = new Map(items.map((i) => [i.id, i]));
  const lines = (ls: CarePlanBilling['services']) =>
    ls.map((l) => ({
      billable_item_id: l.billable_item_id,
      name: item.get(l.billable_item_id)?.name ?? null,
      quantity: l.quantity,
      unit_price: item.has(l.billable_item_id) ? formatMoney(item.get(l.billable_item_id)!.price) : null,
    }));
  const track = (ms: Member[], planned: (m: Member) => number) => {
    const visitsPlanned = ms.reduce((n, m) => n + planned(m), 0);
    const used = ms.reduce((n, m) => n + m.visits_used, 0);
    return {
      members: ms.length,
      visits_planned: visitsPlanned,
      visits_used: used,
      visits_remaining: Math.max(0, visitsPlanned - used),
    };
  };
  const scheduleOf = (m: Member) => m.schedule_override?.schedule_id ?? schedules[0]?.id;
  return {
    ...summary,
    schedules: schedules.map((s) => {
      const on = members.filter((m) => scheduleOf(m) === s.id);
      return {
        id: s.id,
        name: s.name,
        visits_planned: s.visits_planned,
        appointment_type_ids: s.appointment_type_ids,
        auto_sync: s.auto_sync,
        sync_status: s.sync_status,
        phases: s.phases.map((p) => ({
          name: p.name,
          weeks: p.weeks,
          visits_per_week: p.visits_per_week,
          modalities: p.modality_ids.map((id) => ({ id, name: modName.get(id) ?? null })),
        })),
        tracking: track(on, (m) => m.schedule_override?.visits_planned ?? s.visits_planned),
      };
    }),
    billing: {
      ...summary.billing,
      periods: billing.periods.map((p) => ({
        starts_on: p.starts_on,
        ends_on: p.ends_on,
        amount: formatMoney(p.amount_minor),
      })),
      services: lines(billing.services),
      products: lines(billing.products),
    },
    tracking: schedules.length
      ? null
      : track(members, (m) => m.schedule_override?.visits_planned ?? row.visits_planned ?? 0),
  };
}
