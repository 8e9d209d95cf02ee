/**
 * The one server process (Next's custom-server mode): /v3/api goes straight to the REST gateway,
 * everything else to Next's request handler for the portal. Same path in development and production.
 */
import next from 'next';
import { createApp } from './app';
import { installPortalBridge } from './portal/bridge';
import { ConfigError, loadEnv } from './env';

async function main() {
  const env = loadEnv();
  const dev = process.argv.includes('--dev');
  const nextApp = next({ dev, dir: process.cwd(), quiet: !dev });
  await nextApp.prepare();
  const handleNext = nextApp.getRequestHandler();
  const app = await createApp(env, { fallback: (req, res) => handleNext(req, res) });
  installPortalBridge(app.portal);
  app.server.listen(env.PORT, env.HOST, () => {
    console.log(`Clinic API listening on http://localhost:${env.PORT} (API under /v3/api on {clinic}.{region}.${env.SERVICE_DOMAIN})`);
  });
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
