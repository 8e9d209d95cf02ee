/**
 * Which compiled bundle (scripts/build-server.mjs) may run: one that exists and is newer than every
 * source file that went into it (dist/build.json lists them with the build's start time). A bundle
 * older than its sources is never run: the command line falls back to compiling the sources with tsx,
 * the server refuses to start (scripts/start.mjs). Checking ~250 mtimes costs a few milliseconds.
 */
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle's file URL when it may run; otherwise `{ stale: reason }`. CLINIC_DIST_DIR picks another build (the tests'). */
export function compiled(entry) {
  const dist = path.resolve(root, process.env.CLINIC_DIST_DIR || 'dist');
  let build;
  try {
    build = JSON.parse(fs.readFileSync(path.join(dist, 'build.json'), 'utf8'));
  } catch {
    return { stale: `${path.relative(root, dist)}/ has no build (npm run build)` };
  }
  const file = path.join(dist, `${entry}.js`);
  if (!fs.existsSync(file)) return { stale: `${path.relative(root, file)} is missing (npm run build)` };
  for (const input of build.inputs) {
    const mtime = fs.statSync(path.join(root, input), { throwIfNoEntry: false })?.mtimeMs;
    if (mtime === undefined || mtime > build.startedAt)
      return { stale: `${input} changed after the last build (npm run build)` };
  }
  return { url: pathToFileURL(file).href };
}

/**
 * V8's code cache on disk (Node >= 22.1): later starts skip most parsing and compiling. Node 20 has no
 * such API, so there it is skipped. Node's own NODE_COMPILE_CACHE moves the cache, NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export function enableCompileCache() {
  module.enableCompileCache?.();
}
