/**
 * GET /changelog: the change history of the public surface as data. CHANGELOG.md (Keep a Changelog:
 * `## Unreleased` or `## 2026-11-26` or `## [name] - 2026-11-26`, then `### Added` … `### Security`,
 * then a list) is the one source; it is read with marked's lexer once, on first use, and a file that
 * does not have that shape is refused rather than half-served (the changelog test parses the real one).
 * Deprecations are not copied into the file: they are listed from the declarations themselves.
 */
import { readFileSync } from 'node:fs';
import { marked, type Tokens } from 'marked';
import { z } from 'zod';
import { RESOURCES } from '../resources';
import { checked, declaredDeprecations, type DeprecatedItem } from '../resources/deprecation';
import { RouteTable } from './routes';

export const CHANGE_KINDS = ['added', 'changed', 'deprecated', 'removed', 'fixed', 'security'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

const change = z
  .object({
    kind: z
      .enum(CHANGE_KINDS)
      .describe("Keep a Changelog's sections: added (new), changed (behaviour), deprecated, removed, fixed, security"),
    text: z
      .string()
      .describe('What changed, one entry of the list: Markdown inline text (code in backticks, **bold**)'),
  })
  .meta({ id: 'ChangelogChange' });

const release = z
  .object({
    version: z
      .string()
      .describe(
        'The release: its date (YYYY-MM-DD), the way dated API versions are named, or `unreleased` for what is served already and not yet in a dated release',
      ),
    date: z.iso.date().nullable().describe('The release date; null for unreleased'),
    changes: z.array(change).describe('In the order of the file: by kind (as listed there), then as written'),
  })
  .meta({ id: 'ChangelogRelease' });

const deprecation = z
  .object({
    kind: z
      .enum(['attribute', 'filter', 'route'])
      .describe('attribute (with its filter and sort), a filter-only parameter, or a route'),
    name: z.string().describe('`resource.attribute`, `resource.parameter` or `METHOD /path`'),
    since: z.iso.date().describe('Deprecated since this day (the Deprecation header, RFC 9745)'),
    sunset: z.iso
      .date()
      .optional()
      .describe('May stop working after this day (the Sunset header, RFC 8594); absent: served for the life of v3'),
    use: z.string().optional().describe('What to use instead'),
    note: z.string(),
  })
  .meta({ id: 'ChangelogDeprecation' });

export const changelogOutput = z
  .object({
    data: z.array(release).describe('Releases, newest first'),
    deprecations: z
      .array(deprecation)
      .describe(
        'What is deprecated now, from the declarations; responses to requests that use one carry Deprecation, Sunset and Link headers',
      ),
  })
  .meta({ id: 'Changelog' });

export type Release = z.infer<typeof release>;
export type Changelog = z.infer<typeof changelogOutput>;

const HEADINGS: Record<string, ChangeKind> = Object.fromEntries(
  CHANGE_KINDS.map((k) => [k[0].toUpperCase() + k.slice(1), k]),
);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `Unreleased`, `2026-11-26`, `[3.1.0] - 2026-11-26` (the brackets optional). */
function releaseOf(heading: string): Pick<Release, 'version' | 'date'> | null {
  if (/^\[?unreleased\]?$/i.test(heading)) return { version: 'unreleased', date: null };
  if (DAY.test(heading)) return { version: heading, date: heading };
  const named = /^\[?([^\]\s]+)\]?\s+[-–]\s+(\d{4}-\d{2}-\d{2})$/.exec(heading);
  return named ? { version: named[1], date: named[2] } : null;
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * The releases of a Keep a Changelog file, newest first as written. Refused (an Error naming the
 * place): a release heading of another shape, a kind outside the six, an entry outside a kind, a
 * nested list, a release out of order or twice.
 */
export function parseChangelog(markdown: string): Release[] {
  const releases: Release[] = [];
  let kind: ChangeKind | null = null;
  const where = () => (releases.length ? `## ${releases.at(-1)!.version}` : 'before the first release');
  for (const token of marked.lexer(markdown)) {
    if (token.type === 'space') continue;
    if (token.type === 'heading' && token.depth === 1 && releases.length === 0) continue;
    if (token.type === 'heading' && token.depth === 2) {
      const r = releaseOf(token.text.trim());
      if (!r)
        throw new Error(
          `CHANGELOG.md: "## ${token.text}" is not a release (Unreleased, YYYY-MM-DD or [version] - YYYY-MM-DD)`,
        );
      releases.push({ ...r, changes: [] });
      kind = null;
      continue;
    }
    if (releases.length === 0) continue; // The title and the introduction.
    if (token.type === 'heading' && token.depth === 3) {
      kind = HEADINGS[token.text.trim()] ?? null;
      if (!kind)
        throw new Error(
          `CHANGELOG.md ${where()}: "### ${token.text}" is not one of ${Object.keys(HEADINGS).join(', ')}`,
        );
      continue;
    }
    if (token.type === 'list' && kind) {
      for (const item of (token as Tokens.List).items) {
        if (item.tokens.some((t) => t.type === 'list'))
          throw new Error(
            `CHANGELOG.md ${where()}: nested lists are not entries ("${oneLine(item.text).slice(0, 60)}")`,
          );
        releases.at(-1)!.changes.push({ kind, text: oneLine(item.text) });
      }
      continue;
    }
    throw new Error(
      `CHANGELOG.md ${where()}: only ### kinds and their lists belong in a release, found ${token.type} "${oneLine(token.raw).slice(0, 60)}"`,
    );
  }
  releases.forEach((r, i) => {
    const next = releases[i + 1];
    if (r.date === null && i > 0) throw new Error('CHANGELOG.md: Unreleased comes first');
    if (next?.date && r.date && next.date >= r.date)
      throw new Error(`CHANGELOG.md: ${r.version} is followed by ${next.version}: newest first, each release once`);
  });
  return releases;
}

/** Deprecated routes, from the route table of the router the gateway serves. */
async function deprecatedRoutes(): Promise<DeprecatedItem[]> {
  // Imported here, not above: the router's utility routes serve this module.
  const { appRouter } = await import('../routers');
  return new RouteTable(appRouter).routes
    .filter((r) => r.deprecated)
    .map((r) => checked({ kind: 'route', name: `${r.method} ${r.path}`, ...r.deprecated! }));
}

export const CHANGELOG_FILE = new URL('../../CHANGELOG.md', import.meta.url);
let served: Promise<Changelog> | null = null;

/** The body of GET /changelog, built once per process. */
export function changelog(): Promise<Changelog> {
  served ??= (async () => ({
    data: parseChangelog(readFileSync(CHANGELOG_FILE, 'utf8')),
    deprecations: [...declaredDeprecations(Object.values(RESOURCES)), ...(await deprecatedRoutes())],
  }))();
  return served;
}
