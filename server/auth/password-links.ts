/**
 * One-time links to choose a password: a set-up link for a new member (no one else ever knows their
 * password), a reset link when the owner, an admin or the CLI starts a reset. The token is 32 random
 * bytes; only its SHA-256 is kept. A link works once, for LINK_MINUTES, and issuing a new one for the
 * member ends the older ones. Using it sets the password, ends every session of the member and leaves
 * their second factor as it was. The token travels in the URL's fragment (#), which browsers send to no
 * server: it stays out of access logs and Referer headers.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { passwordLinks, sessions, users, type PasswordLinkPurpose } from '../../db/schema';
import type { Account } from '../context';
import { ApiError } from '../errors';
import { memberActor, recordActivity, type Actor } from '../events/record';
import type { Mailer } from '../mail';
import { hashSecret } from './keys';
import { checkPassword } from './password-rules';
import { hashPassword } from './passwords';

/** How long a link works: an hour to set up a new account, half an hour to reset (NIST: short-lived). */
export const LINK_MINUTES: Record<PasswordLinkPurpose, number> = { setup: 60, reset: 30 };
export const LINK_PATH = '/developers/password';
const iso = (ms: number) => new Date(ms).toISOString();

export const linkUrl = (origin: string, token: string) => `${origin}${LINK_PATH}#token=${token}`;

/** A new link for the member, in the caller's transaction; older unused links of theirs stop working. */
export async function issueLink(
  tx: Db,
  accountId: number,
  actor: Actor,
  userId: number,
  purpose: PasswordLinkPurpose,
  now: number,
) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = iso(now + LINK_MINUTES[purpose] * 60_000);
  await tx
    .delete(passwordLinks)
    .where(
      and(eq(passwordLinks.account_id, accountId), eq(passwordLinks.user_id, userId), isNull(passwordLinks.used_at)),
    );
  await tx.insert(passwordLinks).values({
    account_id: accountId,
    user_id: userId,
    purpose,
    token_hash: hashSecret(token),
    created_by: actor.actor_name,
    created_at: iso(now),
    expires_at: expiresAt,
  });
  await recordActivity(
    tx,
    accountId,
    actor,
    'users',
    userId,
    purpose === 'setup' ? 'setup_link_sent' : 'password_reset_started',
    {
      expires_at: expiresAt,
    },
  );
  return { token, expires_at: expiresAt };
}

export interface LinkDelivery {
  /** The link, when there is no mailer: shown once to whoever started it. */
  url: string | null;
  emailed_to: string | null;
  expires_at: string;
}

/**
 * Issues the member's link and delivers it: by email when a mailer is configured (then nobody but the
 * member sees it), else returned once to show. A failed email takes the link back.
 */
export async function sendLink(
  db: DbHandle,
  account: Account,
  actor: Actor,
  userId: number,
  purpose: PasswordLinkPurpose,
  o: { origin: string; mailer: Mailer | null; now: number },
): Promise<LinkDelivery> {
  const { member, link } = await db.transaction(async (tx) => {
    const [member] = await tx
      .select()
      .from(users)
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)));
    if (!member) throw new ApiError('not_found', 'No such team member');
    if (!member.active) throw new ApiError('conflict', 'This member is deactivated: reactivate them first');
    return { member, link: await issueLink(tx, account.id, actor, userId, purpose, o.now) };
  });
  const url = linkUrl(o.origin, link.token);
  if (!o.mailer) return { url, emailed_to: null, expires_at: link.expires_at };
  try {
    await o.mailer.send({ to: member.email, ...message(account, member.name, purpose, url) });
  } catch (err) {
    await db.transaction((tx) =>
      tx
        .delete(passwordLinks)
        .where(and(eq(passwordLinks.account_id, account.id), eq(passwordLinks.token_hash, hashSecret(link.token)))),
    );
    throw err;
  }
  return { url: null, emailed_to: member.email, expires_at: link.expires_at };
}

function message(account: Account, name: string, purpose: PasswordLinkPurpose, url: string) {
  const minutes = LINK_MINUTES[purpose];
  return purpose === 'setup'
    ? {
        subject: `Your ${account.name} portal account`,
        text: `Hello ${name},\n\nYou have been added to ${account.name}'s developer portal. Choose your password here (the link works once, for ${minutes} minutes):\n\n${url}\n\nIf it has expired, ask an admin of the clinic for a new one.\n`,
      }
    : {
        subject: `Reset your ${account.name} portal password`,
        text: `Hello ${name},\n\nA password reset was started for your ${account.name} portal account. Choose a new password here (the link works once, for ${minutes} minutes):\n\n${url}\n\nIf you did not expect this, tell an admin of the clinic: your current password stops working once the link is used.\n`,
      };
}

const GONE = 'This link does not work any more: it was used, it expired, or a newer one was sent. Ask for a new one.';

async function liveLink(db: Db, accountId: number, token: string, now: number) {
  const [row] = await db
    .select({ link: passwordLinks, user: users })
    .from(passwordLinks)
    .innerJoin(users, and(eq(users.account_id, passwordLinks.account_id), eq(users.id, passwordLinks.user_id)))
    .where(and(eq(passwordLinks.account_id, accountId), eq(passwordLinks.token_hash, hashSecret(token))));
  if (!row || row.link.used_at || Date.parse(row.link.expires_at) <= now || !row.user.active)
    throw new ApiError('not_found', GONE);
  return row;
}

/** What a link is for, to show on its page before the member chooses a password. */
export async function describeLink(db: Db, account: Account, token: string, now: number) {
  const { link, user } = await liveLink(db, account.id, token, now);
  return { purpose: link.purpose, name: user.name, email: user.email, expires_at: link.expires_at };
}

/** Sets the member's password from a link, once: the link is spent and every session of theirs ends. */
export async function useLink(db: DbHandle, account: Account, token: string, password: string, now: number) {
  const { user } = await liveLink(db.db, account.id, token, now);
  checkPassword(password, [user.email, account.subdomain]);
  const hash = await hashPassword(password);
  const at = iso(now);
  await db.transaction(async (tx) => {
    // Spent here, conditionally: of two uses at once, one finds it unspent.
    const spent = await tx
      .update(passwordLinks)
      .set({ used_at: at })
      .where(
        and(
          eq(passwordLinks.account_id, account.id),
          eq(passwordLinks.token_hash, hashSecret(token)),
          isNull(passwordLinks.used_at),
          gt(passwordLinks.expires_at, at),
        ),
      )
      .returning({ purpose: passwordLinks.purpose });
    if (!spent.length) throw new ApiError('not_found', GONE);
    await tx
      .update(users)
      .set({ password_hash: hash, password_changed_at: at, updated_at: at })
      .where(and(eq(users.account_id, account.id), eq(users.id, user.id)));
    await tx.delete(sessions).where(and(eq(sessions.account_id, account.id), eq(sessions.user_id, user.id)));
    await recordActivity(
      tx,
      account.id,
      memberActor(user),
      'users',
      user.id,
      spent[0].purpose === 'setup' ? 'password_set' : 'password_reset',
    );
  });
  return { email: user.email };
}
