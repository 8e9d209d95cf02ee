#!/usr/bin/env node
/**
 * The `clinic` command (`npx clinic …`, `npm run -s clinic -- …`): the compiled command line in dist/
 * when it is current, else the TypeScript sources through tsx (a fresh clone before `npm run build`,
 * or sources edited since), so no one ever runs a stale build and nothing needs a build to work.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiled, enableCompileCache, root } from '../scripts/compiled.mjs';

const bundle = compiled('cli');
if (bundle.url) {
  enableCompileCache();
  await import(bundle.url);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'server/cli/main.ts')).href);
}
