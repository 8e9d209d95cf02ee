/**
 * Treatment modalities set up by staff. One that a care plan's phases name is not deleted (409): the
 * plan would lose what its visits are for, and modalities have no inactive state. Take it out of the
 * care plans first.
 */
import { eq } from 'drizzle-orm';
import { carePlans } from '../../../db/schema';
import type { StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import { modalities } from '../../resources/modalities';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

export const createModality = (w: WriteContext, input: StaffCreateInput<typeof modalities>) =>
  createSetupRecord(w, modalities, input);

export const updateModality = (w: WriteContext, id: number, input: StaffUpdateInput<typeof modalities>) =>
  updateSetupRecord(w, modalities, id, input);

export const deleteModality = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, modalities, id, {
    inUse: async (tx, before) => {
      // Phases keep their modalities in the plan's JSON: a clinic has few plans, read whole.
      const plans = await tx
        .select({ schedules: carePlans.schedules })
        .from(carePlans)
        .where(eq(carePlans.account_id, w.account.id));
      const planning = plans.filter((p) =>
        p.schedules.some((s) => s.phases.some((ph) => ph.modality_ids.includes(id))),
      ).length;
      refuseIfUsed(before.name, [[planning, 'care plan']], 'Take it out of those care plans’ phases first.');
    },
  });
