import { bool, id, index, int, table, text, timestamp, uniqueIndex, ref } from '../dialect';
import type { RoleKey } from './roles';

/**
 * Team members: the people of an account who sign in to the portal. Emails are stored lower-case and
 * unique per account; the password is a scrypt hash (server/auth/passwords.ts), never the password, and
 * empty until a new member sets one through their set-up link. `totp_secret` is sealed with the secrets
 * key (server/auth/secrets.ts) and counts once `totp_enabled_at` is set (the member entered a code);
 * `totp_last_step` is the last time step accepted, so a code works once. `factor_failures` counts wrong
 * second factors since `factor_failed_at` (server/auth/second-factor.ts).
 */
export const users = table(
  'users',
  {
    id: id(),
    account_id: ref().notNull(),
    name: text().notNull(),
    email: text().notNull(),
    role: text<RoleKey>().notNull(),
    practitioner_id: ref(),
    active: bool().notNull(),
    password_hash: text().notNull(),
    password_changed_at: timestamp(),
    totp_secret: text(),
    totp_enabled_at: timestamp(),
    totp_last_step: int(),
    factor_failures: int().notNull().default(0),
    factor_failed_at: timestamp(),
    last_sign_in_at: timestamp(),
    deactivated_at: timestamp(),
    created_at: timestamp().notNull(),
    updated_at: timestamp().notNull(),
  },
  (t) => [
    uniqueIndex('users_account_email_uq').on(t.account_id, t.email),
    index('users_account_role_idx').on(t.account_id, t.role),
  ],
);
