/**
 * The account activity log: the audit entries of the people side of the account (keys, sign-ins, team,
 * roles, webhooks, AI connectors), newest first, paged by id (keyset: `before` the last id seen).
 */
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, oauthClients, oauthGrants, users } from '../../db/schema';

export const ACTIVITY_KIND_NAMES = ['api_keys', 'sign_ins', 'team', 'roles', 'webhooks', 'connectors'] as const;
export type ActivityKind = (typeof ACTIVITY_KIND_NAMES)[number];
/** Kinds the portal filters by → the audited entities behind each. */
export const ACTIVITY_KINDS: Record<ActivityKind, readonly string[]> = {
  api_keys: ['api_keys'],
  sign_ins: ['sessions'],
  team: ['users'],
  roles: ['roles'],
  webhooks: ['webhook_endpoints'],
  connectors: ['connectors'],
};
const ALL = Object.values(ACTIVITY_KINDS).flat();

type AuditRow = typeof auditLog.$inferSelect;
/** The app and the member of a connector entry (its audit entity_id is the grant's id). */
export interface ConnectorNames {
  client: string | null;
  member: string | null;
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * Names recorded with the entry come first: grants are swept 30 days after they end, long before the
 * log. Entries that recorded none (made before names were) read them from the grant while it is kept.
 * An approval's actor is the member who connected the app.
 */
async function connectorNames(db: Db, accountId: number, rows: AuditRow[]): Promise<Map<number, ConnectorNames>> {
  const connectors = rows.filter((r) => r.entity === 'connectors');
  const ids = [...new Set(connectors.flatMap((r) => (r.entity_id === null ? [] : [r.entity_id])))];
  const grants = ids.length
    ? await db
        .select({ id: oauthGrants.id, client: oauthClients.name, member: users.name })
        .from(oauthGrants)
        .leftJoin(oauthClients, and(eq(oauthClients.account_id, oauthGrants.account_id), eq(oauthClients.client_id, oauthGrants.client_id)))
        .leftJoin(users, and(eq(users.account_id, oauthGrants.account_id), eq(users.id, oauthGrants.user_id)))
        .where(and(eq(oauthGrants.account_id, accountId), inArray(oauthGrants.id, ids)))
    : [];
  const byGrant = new Map(grants.map((g) => [g.id, g]));
  return new Map(
    connectors.map((r) => {
      const recorded = (r.changes ?? {}) as Record<string, unknown>;
      const grant = r.entity_id === null ? undefined : byGrant.get(r.entity_id);
      const member = text(recorded.member) ?? grant?.member ?? (r.action === 'approved' ? r.actor_name : null);
      return [r.id, { client: text(recorded.client) ?? grant?.client ?? text(recorded.client_id), member }];
    }),
  );
}

export async function listActivity(db: Db, accountId: number, q: { kind?: ActivityKind; before?: number; limit: number }) {
  const entities: string[] = q.kind ? [...ACTIVITY_KINDS[q.kind]] : ALL;
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.account_id, accountId), inArray(auditLog.entity, entities), q.before ? lt(auditLog.id, q.before) : undefined))
    .orderBy(desc(auditLog.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const connectors = await connectorNames(db, accountId, page);
  return {
    data: page.map((r) => ({
      id: r.id,
      kind: ACTIVITY_KIND_NAMES.find((k) => ACTIVITY_KINDS[k].includes(r.entity)) ?? null,
      action: r.action,
      entity_id: r.entity_id,
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      connector: connectors.get(r.id) ?? null,
      changes: r.changes,
      created_at: r.created_at,
    })),
    next_before: rows.length > q.limit ? page[page.length - 1].id : null,
  };
}
