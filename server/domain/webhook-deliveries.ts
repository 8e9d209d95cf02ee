/**
 * What an endpoint's page in the portal reads: the endpoint with its last delivery (from its attempts,
 * so it is as fresh as they are), delivery success over time, its messages a page at a time (newest
 * first, keyset on id, filtered by status and event type), one message with every attempt and the
 * request each sent, and how many messages a recovery would send. Every read is scoped to the account.
 */
import { and, count, desc, eq, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookAttempts, webhookMessages } from '../../db/schema';
import { ApiError } from '../errors';
import { isHeld } from '../events/fan-out';
import { listEndpoints, recoverable, type Endpoint } from './webhooks';

/** How a message stands, as a member reads it: `waiting` is pending for a disabled endpoint (or held), so no attempt is due. */
export const MESSAGE_STATUSES = ['pending', 'waiting', 'delivered', 'failed'] as const;
export type MessageView = (typeof MESSAGE_STATUSES)[number];

/** The chart's two ranges: their length and the width of one bar. */
export const STATS_RANGES = {
  '24h': { span: 24 * 3_600_000, step: 3_600_000 },
  '7d': { span: 7 * 86_400_000, step: 86_400_000 },
} as const;
export type StatsRange = keyof typeof STATS_RANGES;

const ok = (status: number | null) => status !== null && status >= 200 && status < 300;

export async function endpointOrNotFound(db: Db, accountId: number, id: number): Promise<Endpoint> {
  const endpoint = (await listEndpoints(db, accountId)).find((e) => e.id === id);
  if (!endpoint) throw new ApiError('not_found', `No webhook endpoint ${id} on this account`);
  return endpoint;
}

/** The latest attempt of each endpoint (one indexed read each: an account has a handful of endpoints). */
export async function lastAttempts(db: Db, accountId: number, endpointIds: number[]) {
  const rows = await Promise.all(
    endpointIds.map(async (id) => {
      const [a] = await db
        .select({
          status_code: webhookAttempts.status_code,
          error: webhookAttempts.error,
          created_at: webhookAttempts.created_at,
        })
        .from(webhookAttempts)
        .where(and(eq(webhookAttempts.account_id, accountId), eq(webhookAttempts.endpoint_id, id)))
        .orderBy(desc(webhookAttempts.created_at))
        .limit(1);
      return [
        id,
        a ? { at: a.created_at, ok: ok(a.status_code), status_code: a.status_code, error: a.error } : null,
      ] as const;
    }),
  );
  return new Map(rows);
}

/**
 * Attempts per bar over the range ending now: succeeded (2xx) and failed. Bars are counted by the
 * database (one statement, a sum per bar), so a busy endpoint's week is not read row by row.
 */
export async function deliveryStats(db: Db, accountId: number, endpointId: number, range: StatsRange, now: number) {
  await endpointOrNotFound(db, accountId, endpointId);
  const { span, step } = STATS_RANGES[range];
  // Bars end on the hour (or the day, UTC) after now: a bar is a whole hour or day, the last one still filling.
  const end = Math.ceil((now + 1) / step) * step;
  const bars = Array.from({ length: span / step }, (_, i) => ({
    from: new Date(end - span + i * step).toISOString(),
    to: new Date(end - span + (i + 1) * step).toISOString(),
  }));
  const succeeded = sql`${webhookAttempts.status_code} between 200 and 299`;
  const within = (b: { from: string; to: string }) =>
    sql`${webhookAttempts.created_at} >= ${b.from} and ${webhookAttempts.created_at} < ${b.to}`;
  const columns: Record<string, SQL<number>> = {};
  bars.forEach((b, i) => {
    columns[`ok${i}`] = sql<number>`sum(case when ${within(b)} and ${succeeded} then 1 else 0 end)`;
    columns[`all${i}`] = sql<number>`sum(case when ${within(b)} then 1 else 0 end)`;
  });
  const [row] = await db
    .select(columns)
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.account_id, accountId),
        eq(webhookAttempts.endpoint_id, endpointId),
        sql`${webhookAttempts.created_at} >= ${bars[0].from}`,
      ),
    );
  return {
    range,
    bars: bars.map((b, i) => {
      const total = Number(row?.[`all${i}`] ?? 0);
      const succeededN = Number(row?.[`ok${i}`] ?? 0);
      return { ...b, succeeded: succeededN, failed: total - succeededN };
    }),
  };
}

export interface MessageQuery {
  status?: MessageView;
  event_type?: string;
  /** The id of the last message of the previous page. */
  cursor?: number;
  limit: number;
}

/** The condition of a status as shown: `waiting` and `pending` split pending messages by whether an attempt is due. */
function statusCondition(status: MessageView, enabled: boolean): SQL | undefined {
  const pending = eq(webhookMessages.status, 'pending');
  if (status === 'delivered' || status === 'failed') return eq(webhookMessages.status, status);
  if (status === 'waiting') return enabled ? and(pending, isNull(webhookMessages.next_attempt_at)) : pending;
  return enabled ? and(pending, isNotNull(webhookMessages.next_attempt_at)) : sql`false`;
}

const viewOf = (
  m: Pick<typeof webhookMessages.$inferSelect, 'status' | 'next_attempt_at'>,
  enabled: boolean,
): MessageView => (isHeld(m) || (m.status === 'pending' && !enabled) ? 'waiting' : m.status);

/** A page of an endpoint's messages, newest first, and the cursor of the next page (null on the last). */
export async function messagePage(db: Db, accountId: number, endpointId: number, q: MessageQuery) {
  const endpoint = await endpointOrNotFound(db, accountId, endpointId);
  const rows = await db
    .select({
      id: webhookMessages.id,
      event_id: webhookMessages.event_id,
      event_type: webhookMessages.event_type,
      status: webhookMessages.status,
      attempts: webhookMessages.attempts,
      last_status: webhookMessages.last_status,
      next_attempt_at: webhookMessages.next_attempt_at,
      created_at: webhookMessages.created_at,
    })
    .from(webhookMessages)
    .where(
      and(
        eq(webhookMessages.account_id, accountId),
        eq(webhookMessages.endpoint_id, endpointId),
        q.status ? statusCondition(q.status, endpoint.enabled) : undefined,
        q.event_type ? eq(webhookMessages.event_type, q.event_type) : undefined,
        q.cursor ? lt(webhookMessages.id, q.cursor) : undefined,
      ),
    )
    .orderBy(desc(webhookMessages.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((m) => {
      const status = viewOf(m, endpoint.enabled);
      return { ...m, status, next_attempt_at: status === 'pending' ? m.next_attempt_at : null };
    }),
    next_cursor: rows.length > q.limit ? page[page.length - 1].id : null,
  };
}

/** One message of an endpoint: its payload (pretty-printed), and every attempt with the request it sent and what came back. */
export async function messageDetail(db: Db, accountId: number, endpointId: number, messageId: number) {
  const endpoint = await endpointOrNotFound(db, accountId, endpointId);
  const [m] = await db
    .select()
    .from(webhookMessages)
    .where(
      and(
        eq(webhookMessages.account_id, accountId),
        eq(webhookMessages.endpoint_id, endpointId),
        eq(webhookMessages.id, messageId),
      ),
    );
  if (!m) throw new ApiError('not_found', `No message ${messageId} for webhook endpoint ${endpointId}`);
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.account_id, accountId), eq(webhookAttempts.message_id, m.id)))
    .orderBy(desc(webhookAttempts.id));
  const status = viewOf(m, endpoint.enabled);
  return {
    id: m.id,
    endpoint_id: endpointId,
    event_id: m.event_id,
    event_type: m.event_type,
    status,
    next_attempt_at: status === 'pending' ? m.next_attempt_at : null,
    created_at: m.created_at,
    payload: JSON.stringify(JSON.parse(m.payload), null, 2),
    attempts: attempts.map((a) => ({
      id: a.id,
      trigger: a.trigger,
      ok: ok(a.status_code),
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
      created_at: a.created_at,
      request_headers: a.request_headers,
      response_body: a.response_body,
    })),
  };
}

/** How many messages `recoverSince` would send again now: the same condition, counted. */
export async function recoverCount(db: Db, accountId: number, endpointId: number, since: string) {
  await endpointOrNotFound(db, accountId, endpointId);
  const [row] = await db
    .select({ n: count() })
    .from(webhookMessages)
    .where(recoverable(accountId, endpointId, since));
  return { messages: Number(row?.n ?? 0) };
}
