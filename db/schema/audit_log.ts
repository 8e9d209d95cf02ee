import { id, index, json, table, text, timestamp, ref } from '../dialect';

/**
 * The account activity log and audit trail in one table: every write records who did what to which
 * record, in the same transaction as the write.
 */
export const auditLog = table(
  'audit_log',
  {
    id: id(),
    account_id: ref().notNull(),
    actor_type: text<'api_key' | 'user' | 'system' | 'connector'>().notNull(),
    actor_id: ref(),
    actor_name: text().notNull(),
    action: text().notNull(),
    entity: text().notNull(),
    entity_id: ref(),
    changes: json<Record<string, unknown>>(),
    request_id: text(),
    created_at: timestamp().notNull(),
  },
  (t) => [index('audit_log_account_idx').on(t.account_id, t.entity, t.entity_id)],
);
