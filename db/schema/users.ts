import { bool, id, index, table, text, timestamp, uniqueIndex, ref } from '../dialect';
import type { RoleKey } from './roles';

/**
 * Team members: the people of an account who sign in to the portal. Emails are stored lower-case and
 * unique per account; the password is a scrypt hash (server/auth/passwords.ts), never the password.
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
