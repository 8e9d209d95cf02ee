/**
 * The portal pages' way to the running server. Next renders the pages in this same process (custom
 * server mode, server/main.ts) but from its own bundle, so module state is not shared: the server puts
 * the portal on globalThis under a registered symbol, and a page's server component reads it from
 * there. Only types cross from server code into the bundle.
 */
import type { PageContext } from './handler';
import type { RequestLike } from '../request-info';
import type { Changelog } from '../rest/changelog';

export interface PortalBridge {
  contextFor(req: RequestLike): Promise<PageContext | null>;
  /** GET /changelog's body, for the API reference page (one parser, the server's). */
  changelog(): Promise<Changelog>;
}

const KEY = Symbol.for('clinic-api.portal');
type WithBridge = typeof globalThis & { [KEY]?: PortalBridge };

export function installPortalBridge(bridge: PortalBridge): void {
  (globalThis as WithBridge)[KEY] = bridge;
}

export function portalBridge(): PortalBridge {
  const bridge = (globalThis as WithBridge)[KEY];
  if (!bridge)
    throw new Error('The portal pages are served by server/main.ts (npm start / npm run dev), not by next start');
  return bridge;
}
