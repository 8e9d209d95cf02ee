import { Gate } from '../../_components/gate';
import { RequestLog } from './request-log';

export const metadata = { title: 'Request log — developer portal' };

export default function RequestsPage() {
  return (
    <Gate title="the request log" permissions={['api_keys.manage']}>
      <RequestLog />
    </Gate>
  );
}
