import { Badge } from '../../_components/ui';
import { ApiReference } from './api-reference';
import Link from 'next/link';

export const metadata = { title: 'API reference — developer portal' };

/** The API reference: the Beta label and the rendered OpenAPI document; the change history has its own page. */
export default function ReferencePage() {
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold">
          API reference <Badge tone="amber">Beta</Badge>
        </h1>
        <p className="max-w-3xl text-sm text-slate-700">
          The API is in Beta: within v3 it changes additively — new resources, attributes, event types, error codes and
          optional inputs may appear at any time, so read responses leniently. A change that affects an existing client
          is announced in the{' '}
          <Link href="/developers/changelog" className="text-indigo-700 underline">
            changelog
          </Link>{' '}
          first, with time to move.
        </p>
      </div>
      <ApiReference />
    </div>
  );
}
