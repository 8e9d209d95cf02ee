import { id, index, table, text, timestamp, uniqueIndex, ref } from '../dialect';

export const PASSWORD_LINK_PURPOSES = ['setup', 'reset'] as const;
export type PasswordLinkPurpose = (typeof PASSWORD_LINK_PURPOSES)[number];

/**
 * One-time links that let a member choose a password: `setup` for a new member, `reset` when an admin,
 * the owner or the CLI starts a reset (server/auth/password-links.ts). Only the SHA-256 of the token is
 * kept; a link works once (`used_at`), until `expires_at`, and a newer link for the member ends it.
 */
export const passwordLinks = table(
  'password_links',
  {
    id: id(),
    account_id: ref().notNull(),
    user_id: ref().notNull(),
    purpose: text<PasswordLinkPurpose>().notNull(),
    token_hash: text().notNull(),
    created_by: text().notNull(),
    created_at: timestamp().notNull(),
    expires_at: timestamp().notNull(),
    used_at: timestamp(),
  },
  (t) => [
    uniqueIndex('password_links_token_uq').on(t.account_id, t.token_hash),
    index('password_links_user_idx').on(t.account_id, t.user_id),
  ],
);
