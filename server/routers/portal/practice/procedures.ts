/**
 * The procedures of the Practice pages: reading needs settings.read (or manage), every write
 * settings.manage (server/test/portal.practice.permissions.test.ts holds each write procedure to it).
 */
import { z } from 'zod';
import type { WriteContext } from '../../../domain/write-context';
import { recordId } from '../../../resources/fields';
import { permitted } from '../base';

export const read = permitted('settings.read', 'settings.manage');
export const manage = permitted('settings.manage');
export const byId = z.strictObject({ id: recordId });

type Ctx = Parameters<Parameters<typeof manage.mutation>[0]>[0]['ctx'];
/** The member writes as themselves: the audit trail's actor, on the app's clock. */
export const as = (ctx: Ctx): WriteContext => ({
  db: ctx.db,
  account: ctx.account,
  actor: ctx.actor,
  requestId: ctx.requestId,
  now: ctx.now,
});
