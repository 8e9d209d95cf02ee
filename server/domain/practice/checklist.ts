/**
 * "Set up your clinic": the steps a new clinic takes before its first booking, each ticked from the data
 * (not from having visited a page): a location, practitioners, their hours, appointment types, billable
 * items, then a way in for software (an API key that works, or a webhook endpoint). The portal's Start
 * page lists them and an owner of a clinic with steps left lands there.
 */
import { and, count, eq, gt, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  apiKeys,
  appointmentTypes,
  billableItems,
  formTemplates,
  locations,
  practitionerAvailabilities,
  practitioners,
  webhookEndpoints,
} from '../../../db/schema';

export const SETUP_STEPS = [
  'locations',
  'practitioners',
  'hours',
  'appointment_types',
  'billable_items',
  'integration',
] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

type Counted =
  | typeof locations
  | typeof practitioners
  | typeof practitionerAvailabilities
  | typeof appointmentTypes
  | typeof billableItems
  | typeof apiKeys
  | typeof webhookEndpoints;

/** How many rows each step has (0: not done), in the order above. */
export async function setupChecklist(db: Db, accountId: number, now = new Date().toISOString()) {
  const rows = async (table: Counted, where?: SQL) =>
    Number(
      (
        await db
          .select({ n: count() })
          .from(table)
          .where(and(eq(table.account_id, accountId), where))
      )[0].n,
    );
  const keys = await rows(
    apiKeys,
    and(isNull(apiKeys.revoked_at), or(isNull(apiKeys.expires_at), gt(apiKeys.expires_at, now))),
  );
  const counts: Record<SetupStep, number> = {
    locations: await rows(locations),
    practitioners: await rows(practitioners, eq(practitioners.active, true)),
    hours: await rows(practitionerAvailabilities),
    appointment_types: await rows(appointmentTypes, eq(appointmentTypes.active, true)),
    billable_items: await rows(billableItems, eq(billableItems.active, true)),
    integration: keys + (await rows(webhookEndpoints)),
  };
  return SETUP_STEPS.map((step) => ({ step, count: counts[step], done: counts[step] > 0 }));
}

/** Steps not done yet: 0 once the clinic is set up. */
export const stepsLeft = async (db: Db, accountId: number) =>
  (await setupChecklist(db, accountId)).filter((s) => !s.done).length;

/**
 * Whether the clinic has any form template. Templates are written in the clinic software (the API and
 * the portal only read them): for a clinic without any, the portal's page would be a dead end.
 */
export async function hasFormTemplates(db: Db, accountId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: formTemplates.id })
    .from(formTemplates)
    .where(eq(formTemplates.account_id, accountId))
    .limit(1);
  return Boolean(row);
}
