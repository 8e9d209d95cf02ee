#!/usr/bin/env node
/**
 * `npm start`: the compiled server (dist/server.js) with plain node. Refuses to start a build older
 * than its sources (a deploy that forgot `npm run build` must not serve yesterday's code); `npm run dev`
 * runs the sources through tsx instead. Cluster workers re-run this file (node:cluster forks argv[1]).
 */
import { compiled, enableCompileCache } from './compiled.mjs';

const bundle = compiled('server');
if (!bundle.url) {
  console.error(`Not starting: ${bundle.stale}.`);
  process.exit(1);
}
enableCompileCache();
// Stack traces name the TypeScript files and lines (the bundle ships linked source maps).
process.setSourceMapsEnabled(true);
await import(bundle.url);
