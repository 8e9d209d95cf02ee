import {
  accountIdIndex,
  index,
  int,
  json,
  table,
  tenantColumns,
  text,
  sortIndexes,
  ref,
  tenantForeignKey,
} from '../dialect';
import { patients } from './patients';

export interface CarePlanBilling {
  type: 'upfront' | 'per_period' | 'per_visit';
  amount_minor: number;
  period: 'week' | 'month' | null;
  periods: { starts_on: string; ends_on: string; amount_minor: number }[];
  services: { billable_item_id: number; quantity: number }[];
  products: { billable_item_id: number; quantity: number }[];
}

export interface CarePlanSchedule {
  id: number;
  name: string;
  visits_planned: number;
  appointment_type_ids: number[];
  auto_sync: boolean;
  sync_status: 'synced' | 'pending' | 'failed';
  phases: { name: string; weeks: number; visits_per_week: number; modality_ids: number[] }[];
}

/** Care plans: a programme of visits (schedules made of phases) with its billing and its members. */
export const carePlans = table(
  'care_plans',
  {
    ...tenantColumns(),
    name: text().notNull(),
    description: text(),
    status: text<'draft' | 'active' | 'archived'>().notNull(),
    tag_id: ref(),
    billing: json<CarePlanBilling>().notNull(),
    schedules: json<CarePlanSchedule[]>().notNull(),
    /** Visits planned for a plan without a schedule. */
    visits_planned: int(),
  },
  (t) => [
    ...accountIdIndex('care_plans_account_idx', t),
    ...sortIndexes('care_plans', t, [t.name, t.created_at, t.updated_at]),
  ],
);

/** Patients on a care plan; schedule_override moves a member to another schedule or visit count. */
export const carePlanMembers = table(
  'care_plan_members',
  {
    ...tenantColumns(),
    care_plan_id: ref().notNull(),
    patient_id: ref().notNull(),
    schedule_override: json<{ schedule_id?: number; visits_planned?: number } | null>(),
    visits_used: int().notNull(),
  },
  (t) => [
    index('care_plan_members_plan_idx').on(t.account_id, t.care_plan_id),
    index('care_plan_members_patient_idx').on(t.account_id, t.patient_id),
    ...tenantForeignKey('care_plan_members_patient_fk', t, t.patient_id, () => patients),
    ...tenantForeignKey('care_plan_members_plan_fk', t, t.care_plan_id, () => carePlans),
  ],
);
