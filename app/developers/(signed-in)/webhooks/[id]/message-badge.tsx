/** A message's status as a badge, the same on the list and the detail. */
import { Badge } from '../../../_components/ui';
import { STATUS_LABELS, type MessageStatus } from './message-filters';

const TONES: Record<MessageStatus, 'green' | 'red' | 'amber' | 'slate'> = {
  delivered: 'green',
  failed: 'red',
  pending: 'amber',
  waiting: 'slate',
};

export function MessageBadge({ status }: { status: MessageStatus }) {
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}
