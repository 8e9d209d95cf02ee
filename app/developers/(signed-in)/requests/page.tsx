import { Suspense } from 'react';
import { Gate } from '../../_components/gate';
import { Loading } from '../../_components/ui';
import { RequestLog } from './request-log';

export const metadata = { title: 'Request log — developer portal' };

export default function RequestsPage() {
  return (
    <Gate title="the request log" permissions={['api_keys.manage']}>
      {/* The filters live in the address, read on the client. */}
      <Suspense fallback={<Loading what="the request log" />}>
        <RequestLog />
      </Suspense>
    </Gate>
  );
}
