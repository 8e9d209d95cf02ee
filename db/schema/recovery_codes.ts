import { id, index, table, text, timestamp, ref } from '../dialect';

/** One-time recovery codes of a member's two-factor sign-in: SHA-256 only; each works once (`used_at`). */
export const recoveryCodes = table(
  'recovery_codes',
  {
    id: id(),
    account_id: ref().notNull(),
    user_id: ref().notNull(),
    code_hash: text().notNull(),
    created_at: timestamp().notNull(),
    used_at: timestamp(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.account_id, t.user_id)],
);
