import type { KeyPermissions } from './auth/key-groups';
import type { DbHandle } from '../db/client';
import type { accounts } from '../db/schema';
import type { MemberGrant } from './auth/permissions';
import type { Mailer } from './mail';
import type { FileStore } from './files/store';

/** The tenant of a request, as stored (timestamps are the domain's own business). */
export type Account = Omit<typeof accounts.$inferSelect, 'created_at' | 'updated_at' | 'two_factor_policy'>;

export type Scope = 'read' | 'write';

/** An integration calling the REST API with its key. */
export interface KeyPrincipal {
  type: 'api_key';
  id: number;
  name: string;
  scopes: Scope[];
  /** A restricted key's access per group (server/auth/key-permissions.ts); absent: every group at `scopes`. */
  permissions?: KeyPermissions;
  /** The networks the key may call from; absent: any. */
  allowedIps?: readonly string[];
}

/** A team member signed in to the portal (and, later, an AI connector acting as one). */
export interface MemberPrincipal extends MemberGrant {
  type: 'user';
  id: number;
  name: string;
  email: string;
  practitioner_id: number | null;
}

/** Who is calling. Audit entries and events name them. */
export type Principal = KeyPrincipal | MemberPrincipal;

/** The caller before authentication (public routes, a portal request with no session): no scopes. */
export const ANONYMOUS: Principal = { type: 'api_key', id: 0, name: 'anonymous', scopes: [] };

/** What only a portal request has: its session cookie to set or clear, and where it comes from. */
export interface PortalIO {
  /** The session id behind the request's cookie, when signed in or part way (see `step`). */
  sessionId: number | null;
  /**
   * A session part way through signing in: the member who passed the password, and the step that is
   * left (the principal is then ANONYMOUS: nothing else opens).
   */
  step: { stage: 'second_factor' | 'enrol'; userId: number; email: string; name: string } | null;
  /** The clinic's origin as the browser sees it (links in emails, WebAuthn's origin and RP ID). */
  origin: string;
  /** Sends set-up and reset links (SMTP_URL), or null: the link is shown once instead. */
  mailer: Mailer | null;
  clientIp: string;
  /** What per-address limits count this client under (server/values/address.ts). */
  clientKey: string;
  userAgent: string | null;
  /** Sets (a token) or clears (null) the session cookie on the response. */
  setSession(token: string | null): void;
  /** Idle and absolute session lifetimes (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
  policy: { idleMs: number; maxMs: number };
  /** WEBHOOKS_ALLOW_PRIVATE: http and private webhook targets (development and tests only). */
  allowPrivateWebhooks: boolean;
  /** How many attempts a webhook message gets (one per WEBHOOK_RETRY_DELAYS entry): "attempt 3 of 8". */
  webhookAttempts: number;
  /** WEBHOOK_TIMEOUT_MS: how long an endpoint has to answer. */
  webhookTimeoutMs: number;
}

export interface Ctx {
  db: DbHandle;
  files: FileStore;
  account: Account;
  principal: Principal;
  requestId: string;
  /** Absolute base URL of the API for this tenant, e.g. https://acme.neptune.example.com/v3/api */
  baseUrl: string;
  /** Test-only (createApp's `pause` option; no request can set it): see domain/write-context.ts. */
  pause?: PauseHook;
  /** The clock (tests move it to prove expiry and retention). */
  now: () => number;
  /** Portal requests only (server/portal/handler.ts). */
  portal?: PortalIO;
}

/** The critical sections of the domain: a check, then a write that must not be raced. */
export type CriticalSection = 'booking' | 'appointment_change' | 'allocation' | 'invoice_number';
/** Awaited inside a critical section, between its check and its write; tests use it to prove the locks. */
export type PauseHook = (section: CriticalSection) => Promise<void>;
