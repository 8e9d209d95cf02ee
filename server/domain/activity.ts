/**
 * The account activity log: the audit entries of the people side of the account (keys, sign-ins, team,
 * roles; later webhooks and connectors), newest first, paged by id (keyset: `before` the last id seen).
 */
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';

export const ACTIVITY_KIND_NAMES = ['api_keys', 'sign_ins', 'team', 'roles', 'webhooks'] as const;
export type ActivityKind = (typeof ACTIVITY_KIND_NAMES)[number];
/** Kinds the portal filters by → the audited entities behind each. */
export const ACTIVITY_KINDS: Record<ActivityKind, readonly string[]> = { api_keys: ['api_keys'], sign_ins: ['sessions'], team: ['users'], roles: ['roles'], webhooks: ['webhook_endpoints'] };
const ALL = Object.values(ACTIVITY_KINDS).flat();

export async function listActivity(db: Db, accountId: number, q: { kind?: ActivityKind; before?: number; limit: number }) {
  const entities: string[] = q.kind ? [...ACTIVITY_KINDS[q.kind]] : ALL;
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.account_id, accountId), inArray(auditLog.entity, entities), q.before ? lt(auditLog.id, q.before) : undefined))
    .orderBy(desc(auditLog.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((r) => ({
      id: r.id,
      kind: ACTIVITY_KIND_NAMES.find((k) => ACTIVITY_KINDS[k].includes(r.entity)) ?? null,
      action: r.action,
      entity_id: r.entity_id,
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      changes: r.changes,
      created_at: r.created_at,
    })),
    next_before: rows.length > q.limit ? page[page.length - 1].id : null,
  };
}
