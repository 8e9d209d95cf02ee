import { id, index, int, json, table, text, timestamp, uniqueIndex, ref } from '../dialect';

/**
 * A member's passkeys (WebAuthn credentials), a second factor at sign-in (server/auth/passkeys.ts):
 * the credential's id and public key as the authenticator gave them (base64url), its signature counter,
 * and the name the member gave it.
 */
export const passkeys = table(
  'passkeys',
  {
    id: id(),
    account_id: ref().notNull(),
    user_id: ref().notNull(),
    name: text().notNull(),
    credential_id: text().notNull(),
    public_key: text().notNull(),
    counter: int().notNull(),
    transports: json<string[]>().notNull(),
    created_at: timestamp().notNull(),
    last_used_at: timestamp(),
  },
  (t) => [
    uniqueIndex('passkeys_credential_uq').on(t.account_id, t.credential_id),
    index('passkeys_user_idx').on(t.account_id, t.user_id),
  ],
);
