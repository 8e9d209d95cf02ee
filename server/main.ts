/**
 * `npm start` (Next's custom-server mode): /v3/api goes straight to the REST gateway, everything else
 * to Next's request handler for the portal; WEB_CONCURRENCY processes share the port (server/serve.ts).
 * Same path in development (one process) and production.
 */
// First: OpenTelemetry, when configured, starts before anything it instruments is loaded.
import './observability/preload';
import { keepPrivate } from '../db/private-files';
import next from 'next';
import { installPortalBridge } from './portal/bridge';
import { ConfigError, loadEnv } from './env';
import { changelog } from './rest/changelog';
import { withPageSecurity } from './security-headers';
import { serve } from './serve';

keepPrivate();

async function main() {
  const env = loadEnv();
  const dev = process.argv.includes('--dev');
  await serve(dev ? { ...env, WEB_CONCURRENCY: 1 } : env, {
    async fallback() {
      const nextApp = next({ dev, dir: process.cwd(), quiet: !dev });
      await nextApp.prepare();
      const handleNext = nextApp.getRequestHandler();
      // Every page gets its own CSP nonce and frame-ancestors 'none' (server/security-headers.ts).
      return withPageSecurity((req, res) => handleNext(req, res), { dev });
    },
    ready: (app) => installPortalBridge({ contextFor: app.portal.contextFor, changelog }),
    listening: (port) =>
      console.log(
        `Clinic API listening on http://localhost:${port} with ${dev ? 1 : env.WEB_CONCURRENCY} process(es) (API under /v3/api on {clinic}.{region}.${env.SERVICE_DOMAIN})`,
      ),
  });
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
