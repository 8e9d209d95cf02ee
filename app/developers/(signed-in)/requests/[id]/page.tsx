import { Suspense } from 'react';
import { Gate } from '../../../_components/gate';
import { Loading } from '../../../_components/ui';
import { RequestDetail } from './request-detail';

export const metadata = { title: 'Request — developer portal' };

export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Gate title="the request log" permissions={['api_keys.manage']}>
      <Suspense fallback={<Loading what="the request" />}>
        <RequestDetail id={id} />
      </Suspense>
    </Gate>
  );
}
