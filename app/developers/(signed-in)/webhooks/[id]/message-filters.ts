/**
 * An endpoint page's state as its address holds it (`?status=failed&type=patients.created&range=7d`):
 * Back, a reload and a shared link restore it. Values the server would refuse are left out.
 */
import type { portal } from '../../../_lib/trpc';

type PageInput = Parameters<typeof portal.webhooks.messagePage.query>[0];
export type MessageStatus = NonNullable<PageInput['status']>;
export type Range = Parameters<typeof portal.webhooks.stats.query>[0]['range'];

/** Every status the server filters by, with what a person reads (typed: none is left out). */
export const STATUS_LABELS: Record<MessageStatus, string> = {
  pending: 'Pending',
  waiting: 'Waiting',
  delivered: 'Delivered',
  failed: 'Failed',
};
export const RANGE_LABELS: Record<Range, string> = { '24h': 'Last 24 hours', '7d': 'Last 7 days' };

export interface PageState {
  status?: MessageStatus;
  type?: string;
  range: Range;
}

const oneOf = <T extends string>(labels: Record<T, string>, v: string | null): T | undefined =>
  v !== null && Object.hasOwn(labels, v) ? (v as T) : undefined;

/** The state of an address; `types` are the event types the filter offers. */
export function stateFrom(params: URLSearchParams, types: readonly string[]): PageState {
  const type = params.get('type');
  return {
    status: oneOf(STATUS_LABELS, params.get('status')),
    type: type && types.includes(type) ? type : undefined,
    range: oneOf(RANGE_LABELS, params.get('range')) ?? '24h',
  };
}

/** `?…` for the state, in a fixed order, the default range left out. */
export function searchOf(s: PageState): string {
  const params = new URLSearchParams();
  if (s.status) params.set('status', s.status);
  if (s.type) params.set('type', s.type);
  if (s.range !== '24h') params.set('range', s.range);
  const q = params.toString();
  return q ? `?${q}` : '';
}
