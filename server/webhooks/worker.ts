/**
 * The delivery worker: claims due messages with a lease, delivers them concurrently (a slow endpoint
 * holds only its own messages), records every attempt, and schedules the next one on the retry
 * schedule. On PostgreSQL several workers claim with FOR UPDATE SKIP LOCKED and never share a message;
 * on SQLite the claim runs in the one writer's transaction. A worker that dies mid-delivery leaves a
 * lease that expires: the message is claimed again (at-least-once). Held messages (of a disabled
 * endpoint: server/events/fan-out.ts) have no due time and are never claimed; due messages are claimed
 * oldest first.
 */
import { and, asc, eq, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { DbHandle } from '../../db/client';
import { isPg, keyIn } from '../../db/dialect';
import { onCitus } from '../../db/citus';
import { webhookAttempts, webhookEndpoints, webhookMessages, type AttemptTrigger } from '../../db/schema';
import type { Env } from '../env';
import { TEST_EVENT_TYPE } from '../events/types';
import type { Actor } from '../events/record';
import { switchEndpoint } from '../domain/webhooks';
import { HELD } from '../events/fan-out';
import { open } from '../auth/secrets';
import { send, type Sent } from '../outbound';
import { observing } from '../observability/hooks';

export interface DeliveryPolicy {
  timeoutMs: number;
  /** Seconds before each attempt: the first is the delay of the first attempt (0: at once). */
  delays: number[];
  disableAfterMs: number;
  allowPrivate: boolean;
}

const CLAIM_BATCH = 20;
const MAX_IN_FLIGHT = 50;
/** A slow endpoint holds at most this many of the in-flight slots: it never delays another endpoint. */
const PER_ENDPOINT = 8;
/** A lease outlives the longest attempt (the timeout) by this much. */
const LEASE_MARGIN_MS = 5000;
const IDLE_POLL_MS = 500;
const USER_AGENT = 'ClinicAPI-Webhooks/1.0 (+https://www.standardwebhooks.com)';
const RETRYABLE_WITH_HINT = new Set([429, 502, 503, 504]);
/** Who the activity log names when the worker disables an endpoint. */
const DELIVERY_ACTOR: Actor = { actor_type: 'system', actor_id: null, actor_name: 'webhook delivery' };

type Message = typeof webhookMessages.$inferSelect;
type Endpoint = typeof webhookEndpoints.$inferSelect;

/** `webhook-signature`: one `v1,` signature per live secret (two during a rotation's grace). */
export function signatures(
  endpoint: Pick<Endpoint, 'secret' | 'previous_secret' | 'previous_expires_at'>,
  id: string,
  at: Date,
  payload: string,
  now: number,
): string {
  const secrets = [
    endpoint.secret,
    ...(endpoint.previous_secret && endpoint.previous_expires_at && Date.parse(endpoint.previous_expires_at) > now
      ? [endpoint.previous_secret]
      : []),
  ];
  return secrets.map((s) => new Webhook(open(s)).sign(id, at, payload)).join(' ');
}

export class WebhookWorker {
  private inFlight = new Set<Promise<void>>();
  private perEndpoint = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  /** The round claiming now: stop() waits for it, so what it claims is delivered before stop() resolves. */
  private round: Promise<unknown> | null = null;

  constructor(
    private readonly db: DbHandle,
    private readonly policy: DeliveryPolicy,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
    /** Test-only (createApp's `claimFor`): claim the messages of these clinics alone. */
    private readonly claimFor?: () => readonly number[],
  ) {}

  /** Claims and delivers until stop(); started again after a stop (the scheduler does, as its lease comes and goes). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops claiming; waits for the round claiming and the deliveries in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
  }

  private ticking = false;
  private idle = false;

  /** Busy: the next round at once; idle: a read every IDLE_POLL_MS, or sooner when a delivery frees a slot. */
  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.idle = ms > 0;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.ticking = true;
      const round = (this.round = this.tick());
      void round
        .then(
          (n) => n,
          (err) => (this.onError(err), 0),
        )
        .then((n) => {
          this.ticking = false;
          if (this.round === round) this.round = null;
          this.schedule(n > 0 ? 0 : IDLE_POLL_MS);
        });
    }, ms);
    this.timer.unref();
  }

  /** A delivery ended: its slot is free, so claim again now rather than at the next idle poll. */
  private kick() {
    if (!this.stopped && this.idle && !this.ticking) this.schedule(0);
  }

  /** One round: claim what is due (within the in-flight cap) and start delivering it. Resolves when claimed. */
  async tick(): Promise<number> {
    const room = MAX_IN_FLIGHT - this.inFlight.size;
    if (room <= 0) return 0;
    const claimed = await this.claim(Math.min(room, CLAIM_BATCH));
    for (const m of claimed) {
      this.perEndpoint.set(m.endpoint_id, (this.perEndpoint.get(m.endpoint_id) ?? 0) + 1);
      const p: Promise<void> = this.deliver(m, m.next_trigger ?? 'scheduled')
        .then(() => undefined, this.onError)
        .finally(() => {
          this.inFlight.delete(p);
          const left = (this.perEndpoint.get(m.endpoint_id) ?? 1) - 1;
          if (left > 0) this.perEndpoint.set(m.endpoint_id, left);
          else this.perEndpoint.delete(m.endpoint_id);
          this.kick();
        });
      this.inFlight.add(p);
    }
    return claimed.length;
  }

  /** Delivers everything due now and waits for it (tests, the CLI): returns how many were attempted. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      // Deliveries already in flight may hold their endpoints' slots: a round after them claims what those held back.
      const busy = this.inFlight.size > 0;
      const n = await this.tick();
      await Promise.allSettled([...this.inFlight]);
      total += n;
      if (n === 0 && !busy) return total;
    }
  }

  private async claim(limit: number): Promise<Message[]> {
    const now = new Date(this.now()).toISOString();
    const only = this.claimFor?.();
    if (only && !only.length) return [];
    const scoped = only ? inArray(webhookMessages.account_id, [...only]) : undefined;
    // A read first: an idle worker does not open a write transaction every round. `lte` is never true of
    // a held message's null due time, here and in the claim.
    const [any] = await this.db.db
      .select({ id: webhookMessages.id })
      .from(webhookMessages)
      .where(and(eq(webhookMessages.status, 'pending'), lte(webhookMessages.next_attempt_at, now), scoped))
      .limit(1);
    if (!any) return [];
    const leaseUntil = new Date(this.now() + this.policy.timeoutMs + LEASE_MARGIN_MS).toISOString();
    const busy = [...this.perEndpoint].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
    // A Citus cluster cannot lock rows across shards (FOR UPDATE is refused): there the claim is the update
    // itself, made only where the message is still due and free, so of two workers racing for a message
    // the second's update finds it leased and claims nothing (READ COMMITTED re-checks the row it waited on).
    const citus = await onCitus(this.db);
    const free = and(
      eq(webhookMessages.status, 'pending'),
      lte(webhookMessages.next_attempt_at, now),
      or(isNull(webhookMessages.lease_until), lt(webhookMessages.lease_until, now)),
      scoped,
    );
    return this.db.transaction(async (tx) => {
      const due = tx
        .select({ account_id: webhookMessages.account_id, id: webhookMessages.id })
        .from(webhookMessages)
        .innerJoin(
          webhookEndpoints,
          and(
            eq(webhookEndpoints.account_id, webhookMessages.account_id),
            eq(webhookEndpoints.id, webhookMessages.endpoint_id),
            eq(webhookEndpoints.enabled, true),
          ),
        )
        .where(and(free, busy.length ? notInArray(webhookMessages.endpoint_id, busy) : undefined))
        // Messages released together (an endpoint enabled, a recovery) share a due time: by id, oldest first.
        .orderBy(asc(webhookMessages.next_attempt_at), asc(webhookMessages.id))
        .limit(limit);
      const keys = await (isPg && !citus ? due.for('update', { of: webhookMessages, skipLocked: true }) : due);
      if (!keys.length) return [];
      return tx
        .update(webhookMessages)
        .set({ lease_until: leaseUntil, attempts: sql`${webhookMessages.attempts} + 1`, updated_at: now })
        .where(and(keyIn(webhookMessages, keys), citus ? free : undefined))
        .returning();
    });
  }

  /** One attempt of a claimed message: send, record, and decide what comes next. */
  async deliver(m: Message, trigger: AttemptTrigger): Promise<Sent | null> {
    const [endpoint] = await this.db.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.account_id, m.account_id), eq(webhookEndpoints.id, m.endpoint_id)));
    if (!endpoint) return null;
    if (!endpoint.enabled) {
      // Disabled since the claim: no attempt. The message is held again and the claim's count undone.
      await this.db.transaction((tx) =>
        tx
          .update(webhookMessages)
          .set({ ...HELD, lease_until: null, attempts: m.attempts - 1, updated_at: new Date(this.now()).toISOString() })
          .where(and(eq(webhookMessages.account_id, m.account_id), eq(webhookMessages.id, m.id))),
      );
      return null;
    }
    const at = new Date(this.now());
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': m.event_id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatures(endpoint, m.event_id, at, m.payload, at.getTime()),
    };
    const sent = await send(endpoint.url, m.payload, headers, {
      timeoutMs: this.policy.timeoutMs,
      allowPrivate: this.policy.allowPrivate,
    });
    await this.record(m, endpoint, sent, m.event_type === TEST_EVENT_TYPE ? 'test' : trigger, headers);
    return sent;
  }

  private async record(
    m: Message,
    endpoint: Endpoint,
    sent: Sent,
    trigger: AttemptTrigger,
    headers: Record<string, string>,
  ) {
    const now = this.now();
    const at = new Date(now).toISOString();
    const ok = sent.status !== null && sent.status >= 200 && sent.status < 300;
    const gone = sent.status === 410;
    const last = m.attempts >= this.policy.delays.length;
    const hinted =
      sent.status !== null && RETRYABLE_WITH_HINT.has(sent.status) && sent.retryAfter !== null ? sent.retryAfter : null;
    // Jitter (±20%) keeps the retries of many messages from arriving together.
    const delay = hinted ?? (this.policy.delays[m.attempts] ?? 0) * (0.8 + Math.random() * 0.4);
    await this.db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values({
        account_id: m.account_id,
        endpoint_id: m.endpoint_id,
        message_id: m.id,
        trigger,
        status_code: sent.status,
        duration_ms: sent.durationMs,
        response_body: sent.body,
        error: sent.error,
        // What was sent, as sent: the portal shows a delivery's request (the timestamp and signature cannot be rebuilt).
        request_headers: headers,
        created_at: at,
      });
      await tx
        .update(webhookMessages)
        .set({
          status: ok ? 'delivered' : gone || last ? 'failed' : 'pending',
          next_attempt_at: ok || gone || last ? null : new Date(now + delay * 1000).toISOString(),
          lease_until: null,
          last_status: sent.status,
          next_trigger: null,
          updated_at: at,
        })
        .where(and(eq(webhookMessages.account_id, m.account_id), eq(webhookMessages.id, m.id)));
      if (ok) {
        if (endpoint.failing_since)
          await tx
            .update(webhookEndpoints)
            .set({ failing_since: null })
            .where(and(eq(webhookEndpoints.account_id, endpoint.account_id), eq(webhookEndpoints.id, endpoint.id)));
        return;
      }
      const failingSince = endpoint.failing_since ?? at;
      if (!endpoint.failing_since)
        await tx
          .update(webhookEndpoints)
          .set({ failing_since: at })
          .where(and(eq(webhookEndpoints.account_id, endpoint.account_id), eq(webhookEndpoints.id, endpoint.id)));
      const reason = gone
        ? 'The endpoint answered 410 Gone'
        : now - Date.parse(failingSince) >= this.policy.disableAfterMs
          ? `Every delivery failed since ${failingSince}`
          : null;
      if (reason && endpoint.enabled) await switchEndpoint(tx, DELIVERY_ACTOR, endpoint, false, reason, at);
    });
    if (observing.any)
      observing.any.delivery(
        ok ? 'delivered' : gone || last ? 'failed' : 'retrying',
        m.next_attempt_at,
        now - sent.durationMs,
      );
  }
}

/** The delivery policy from the environment. */
export const policyOf = (
  env: Pick<Env, 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_DELAYS' | 'WEBHOOK_DISABLE_AFTER' | 'WEBHOOKS_ALLOW_PRIVATE'>,
): DeliveryPolicy => ({
  timeoutMs: env.WEBHOOK_TIMEOUT_MS,
  delays: env.WEBHOOK_RETRY_DELAYS,
  disableAfterMs: env.WEBHOOK_DISABLE_AFTER,
  allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE,
});
