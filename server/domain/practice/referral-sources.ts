/**
 * Referral sources written by staff in the portal, by the same declaration as the API's writes
 * (server/resources/referral_sources.ts: the API creates and updates them). Only the portal deletes
 * one, and only when no patient names it (409 otherwise: patients keep where they came from; make it
 * inactive instead, so it can no longer be given). A deleted patient's record is never read again, so
 * only live patients count.
 */
import { and, count, eq, isNull } from 'drizzle-orm';
import { patients } from '../../../db/schema';
import type { StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import { referralSources } from '../../resources/referral_sources';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

export const createReferralSource = (w: WriteContext, input: StaffCreateInput<typeof referralSources>) =>
  createSetupRecord(w, referralSources, input, { defaults: { active: true } });

export const updateReferralSource = (w: WriteContext, id: number, input: StaffUpdateInput<typeof referralSources>) =>
  updateSetupRecord(w, referralSources, id, input);

export const deleteReferralSource = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, referralSources, id, {
    inUse: async (tx, before) => {
      const acc = w.account.id;
      const [referred] = await tx
        .select({ n: count() })
        .from(patients)
        .where(
          and(
            eq(patients.account_id, acc),
            eq(patients.referral_source_type, 'referral_source'),
            eq(patients.referral_source_id, id),
            isNull(patients.deleted_at),
          ),
        );
      refuseIfUsed(
        before.name,
        [[referred.n, 'patient referred by it', 'patients referred by it']],
        'Make it inactive instead: it can no longer be given as a referral, and those patients keep it.',
      );
    },
  });
