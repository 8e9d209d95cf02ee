import { portalBridge } from '../../../../server/portal/bridge';
import { Changelog } from './changelog';

export const metadata = { title: 'Changelog — developer portal' };

/**
 * The change history, on a page of its own: on the API reference it stood above the operations
 * (~3,650 px down on a laptop, ~9,460 on a phone: review point 21).
 */
export default async function ChangelogPage() {
  const changelog = await portalBridge().changelog();
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Changelog</h1>
      <Changelog changelog={changelog} />
    </div>
  );
}
