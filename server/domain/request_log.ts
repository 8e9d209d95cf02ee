/** The request log as the portal reads it: newest first, filtered by key, status class and path, paged by id. */
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys, requestLog } from '../../db/schema';

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RequestQuery {
  keyId?: number;
  statusClass?: StatusClass;
  /** Path prefix, below /v3/api (e.g. /patients). */
  path?: string;
  before?: number;
  limit: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listRequests(db: Db, accountId: number, q: RequestQuery) {
  const where: (SQL | undefined)[] = [eq(requestLog.account_id, accountId)];
  if (q.keyId !== undefined) where.push(eq(requestLog.api_key_id, q.keyId));
  if (q.statusClass) {
    const base = Number(q.statusClass[0]) * 100;
    where.push(gte(requestLog.status, base), lt(requestLog.status, base + 100));
  }
  if (q.path) {
    const prefix = `/v3/api${q.path.startsWith('/') ? q.path : `/${q.path}`}`;
    where.push(sql`${requestLog.path} like ${`${escapeLike(prefix)}%`} escape '\\'`);
  }
  if (q.before) where.push(lt(requestLog.id, q.before));
  const rows = await db
    .select({ row: requestLog, key_name: apiKeys.name })
    .from(requestLog)
    .leftJoin(apiKeys, and(eq(apiKeys.account_id, requestLog.account_id), eq(apiKeys.id, requestLog.api_key_id)))
    .where(and(...where))
    .orderBy(desc(requestLog.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    data: page.map(({ row, key_name }) => ({
      id: row.id,
      method: row.method,
      path: row.path,
      status: row.status,
      duration_ms: row.duration_ms,
      request_id: row.request_id,
      key: row.api_key_id === null ? null : { id: row.api_key_id, name: key_name },
      created_at: row.created_at,
    })),
    next_before: rows.length > q.limit ? page[page.length - 1].row.id : null,
  };
}
