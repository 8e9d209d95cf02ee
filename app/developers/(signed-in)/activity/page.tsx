import { Gate } from '../../_components/gate';
import { ActivityLog } from './activity-log';

export const metadata = { title: 'Activity log — developer portal' };

export default function ActivityPage() {
  return (
    <Gate title="the activity log" permissions={['api_keys.manage', 'team.manage']}>
      <ActivityLog />
    </Gate>
  );
}
