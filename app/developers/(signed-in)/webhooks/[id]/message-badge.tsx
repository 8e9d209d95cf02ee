'use client';
/** A message's status as a badge, the same on the list and the detail. */
import { Badge } from '../../../_components/ui';
import { useClockTime } from '../../../_components/time';
import { STATUS_LABELS, type MessageStatus } from './message-filters';

const TONES: Record<MessageStatus, 'green' | 'red' | 'amber' | 'slate'> = {
  delivered: 'green',
  failed: 'red',
  pending: 'amber',
  waiting: 'slate',
};

/**
 * A pending message that has failed before reads "Failing", not "Pending" (the word for one never tried):
 * the person sees that its endpoint is refusing it while retries go on.
 */
export function MessageBadge({ status, attempts = 0 }: { status: MessageStatus; attempts?: number }) {
  if (status === 'pending' && attempts > 0) return <Badge tone="red">Failing</Badge>;
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** "next try at 14:05 (attempt 3 of 8)" for a failing message; nothing for any other. */
export function RetryNote({
  status,
  attempts,
  nextAttemptAt,
  maxAttempts,
}: {
  status: MessageStatus;
  attempts: number;
  nextAttemptAt: string | null;
  maxAttempts: number;
}) {
  const clock = useClockTime();
  if (status !== 'pending' || attempts === 0 || !nextAttemptAt) return null;
  return (
    <span className="block text-xs text-slate-700">
      next try at {clock(nextAttemptAt)} (attempt {attempts + 1} of {maxAttempts})
    </span>
  );
}
