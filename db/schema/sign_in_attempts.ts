import { bool, id, index, table, text, timestamp, ref } from '../dialect';

/** Sign-in attempts, for throttling by email and by address (server/auth/sign-in.ts); swept after a day. */
export const signInAttempts = table(
  'sign_in_attempts',
  {
    id: id(),
    account_id: ref().notNull(),
    email: text().notNull(),
    ip: text().notNull(),
    succeeded: bool().notNull(),
    created_at: timestamp().notNull(),
  },
  (t) => [
    index('sign_in_attempts_email_idx').on(t.account_id, t.email, t.created_at),
    index('sign_in_attempts_ip_idx').on(t.ip, t.created_at),
  ],
);
