#!/usr/bin/env node
/**
 * `npm run build` (after `next build`): bundles the server (server/main.ts) and the command line
 * (server/cli/main.ts) into plain ESM JavaScript under dist/, so `npm start` and `clinic` run with
 * `node` alone instead of compiling TypeScript at every start (tsx stays for `npm run dev` and tests).
 *
 * esbuild, because it is already installed (tsx runs on it, same major), bundles both entries in about
 * a second, and can leave npm packages external: node_modules is resolved at run time as under tsx
 * (better-sqlite3's native module, Next, pg, pino's worker files). tsc would emit one file per source
 * file (a start pays for resolving and loading each) and needs the import paths rewritten for Node's ESM.
 *
 * Files read at run time beside the sources (db/migrations, CHANGELOG.md) stay where they are: each
 * module's `import.meta.url` is rewritten to the URL its source file has, computed from the bundle's own
 * location, so `new URL('../x', import.meta.url)` and friends find the same files as under tsx.
 *
 * dist/build.json lists the source files that went in (and npm's record of installed packages) and when
 * the build started; a bundle older than any of them never runs (scripts/compiled.mjs): `npm start`
 * refuses, the command line compiles the sources with tsx instead.
 *
 * Usage: node scripts/build-server.mjs [--outdir DIR]   (default dist/; the tests build elsewhere)
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = path.resolve(root, values.outdir ?? 'dist');

/** Where the project root is seen from the bundles (they sit directly in outdir). */
const rootFromOut = path.relative(outdir, root).split(path.sep).join('/') || '.';

// A source file's import.meta.url, as an expression valid inside the bundle.
const sourceUrl = (file) =>
  `new URL(${JSON.stringify(path.relative(root, file).split(path.sep).join('/'))}, __clinicRoot).href`;

/** Rewrites `import.meta.url` in our own sources; other import.meta properties would be wrong in a bundle. */
const sourceLocations = {
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.promises.readFile(args.path, 'utf8');
      const other = /import\.meta\.(?!url\b)\w+/.exec(text);
      if (other)
        return { errors: [{ text: `${other[0]} is not supported in bundled server code (use import.meta.url)` }] };
      return {
        contents: text.replaceAll('import.meta.url', sourceUrl(args.path)),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      };
    });
  },
};

/**
 * npm packages the command line carries inside its bundle: pure ESM spread over hundreds of small files,
 * whose loading was most of a command's start (zod and drizzle-orm: ~0.5 s of a `key list`). Everything
 * else (native, CommonJS, Next) stays external, and the server keeps every package external: it loads
 * once, and other packages it uses (trpc-to-openapi, zod-openapi) import zod themselves.
 */
const CLI_INLINE = new Set(['zod', 'drizzle-orm', 'luxon', 'libphonenumber-js']);
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const externalPackages = (inline) => ({
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      inline.has(packageOf(args.path)) && args.kind !== 'entry-point' ? undefined : { external: true },
    );
  },
});

const startedAt = Date.now();
fs.rmSync(outdir, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // The bundle's own location once, for every rewritten import.meta.url.
  // A CommonJS package inside a bundle calls require(): ESM has none, so each output file gets one.
  banner: {
    js: `import { createRequire as __clinicRequire } from 'node:module'; const require = __clinicRequire(import.meta.url); const __clinicRoot = new URL(${JSON.stringify(`${rootFromOut}/`)}, import.meta.url);`,
  },
  metafile: true,
  logLevel: 'warning',
};
const results = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: { server: 'server/main.ts' },
    chunkNames: 'server-[name]-[hash]',
    plugins: [sourceLocations, externalPackages(new Set())],
  }),
  esbuild.build({
    ...common,
    entryPoints: { cli: 'server/cli/main.ts' },
    chunkNames: 'cli-[name]-[hash]',
    plugins: [sourceLocations, externalPackages(CLI_INLINE)],
  }),
]);

// Our sources, plus npm's record of the installed packages: the command line carries some of them
// inside its bundle, so an install (which rewrites that record) makes the build stale too.
const installed = fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))
  ? ['node_modules/.package-lock.json']
  : [];
const sources = [...new Set(results.flatMap((r) => Object.keys(r.metafile.inputs)))].filter(
  (f) => !f.split('/').includes('node_modules'),
);
const inputs = [...sources.sort(), ...installed];
fs.writeFileSync(path.join(outdir, 'package.json'), JSON.stringify({ type: 'module' }) + '\n');
fs.writeFileSync(
  path.join(outdir, 'build.json'),
  JSON.stringify({ startedAt, root: rootFromOut, inputs }, null, 1) + '\n',
);
console.error(
  `server and command line compiled to ${path.relative(root, outdir) || '.'}/ (${sources.length} source files, ${Date.now() - startedAt} ms)`,
);
