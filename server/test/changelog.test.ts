/**
 * GET /changelog serves CHANGELOG.md as data: the parser reads Keep a Changelog and refuses anything
 * else, the real file parses newest first, the route is public and cacheable (ETag, 304), and the
 * document names its model.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHANGELOG_FILE, parseChangelog } from '../rest/changelog';
import { expectError, request, useClinic } from './helpers';
import { OpenApiDoc, type Doc } from './support/openapi-doc';

const t = useClinic();
const file = readFileSync(CHANGELOG_FILE, 'utf8');

const SAMPLE = `# Changelog

Some introduction, with a [link](https://keepachangelog.com).

## [Unreleased]

### Added
- \`GET /things\`, listed
  over two lines.
- Another thing.

### Deprecated
- \`things.old\`: use \`things.new\`.

## [3.1.0] - 2026-11-26

### Fixed

- A loose list item.

- Another one, after a blank line.

### Security
- Tighter.

## 2026-11-25

### Removed
- Nothing, really.
`;

describe('the parser', () => {
  it('reads releases newest first with their kinds and entries, one line each, introduction left out', () => {
    expect(parseChangelog(SAMPLE)).toEqual([
      {
        version: 'unreleased',
        date: null,
        changes: [
          { kind: 'added', text: '`GET /things`, listed over two lines.' },
          { kind: 'added', text: 'Another thing.' },
          { kind: 'deprecated', text: '`things.old`: use `things.new`.' },
        ],
      },
      {
        version: '3.1.0',
        date: '2026-11-26',
        changes: [
          { kind: 'fixed', text: 'A loose list item.' },
          { kind: 'fixed', text: 'Another one, after a blank line.' },
          { kind: 'security', text: 'Tighter.' },
        ],
      },
      { version: '2026-11-25', date: '2026-11-25', changes: [{ kind: 'removed', text: 'Nothing, really.' }] },
    ]);
  });

  it.each([
    ['a release heading of another shape', '## Next week\n\n### Added\n- x\n', /not a release/],
    [
      'a kind outside the six',
      '## Unreleased\n\n### Improved\n- x\n',
      /"### Improved" is not one of Added, Changed, Deprecated, Removed, Fixed, Security/,
    ],
    ['an entry outside a kind', '## Unreleased\n\n- x\n', /only ### kinds and their lists/],
    ['prose inside a release', '## Unreleased\n\n### Added\n- x\n\nSome prose.\n', /found paragraph "Some prose."/],
    ['a nested list', '## Unreleased\n\n### Added\n- x\n  - y\n', /nested lists/],
    ['releases oldest first', '## 2026-11-25\n\n### Added\n- x\n\n## 2026-11-26\n\n### Added\n- y\n', /newest first/],
    [
      'the same release twice',
      '## 2026-11-25\n\n### Added\n- x\n\n## 2026-11-25\n\n### Added\n- y\n',
      /each release once/,
    ],
    [
      'Unreleased after a release',
      '## 2026-11-25\n\n### Added\n- x\n\n## Unreleased\n\n### Added\n- y\n',
      /Unreleased comes first/,
    ],
  ])('refuses %s', (_, markdown, message) => {
    expect(() => parseChangelog(markdown)).toThrow(message);
  });
});

describe('CHANGELOG.md', () => {
  it('parses: Unreleased first, then dated releases, each with entries', () => {
    const releases = parseChangelog(file);
    expect(releases[0]).toMatchObject({ version: 'unreleased', date: null });
    expect(releases.length).toBeGreaterThan(1);
    for (const r of releases.slice(1)) expect(r.date, r.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const r of releases) expect(r.changes.length, r.version).toBeGreaterThan(0);
    // Every entry of the file is served: the parser drops none.
    expect(releases.flatMap((r) => r.changes).length).toBe(file.split('\n').filter((l) => l.startsWith('- ')).length);
  });
});

describe('GET /changelog', () => {
  it('is public: no key needed, the file as data, nothing deprecated in the declarations today', async () => {
    const res = await request(t.server, 'GET', '/changelog', { host: t.clinic.host });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body).toEqual({ data: parseChangelog(file), deprecations: [] });
    expect(res.body.data.at(-1).changes).toContainEqual({
      kind: 'added',
      text: expect.stringMatching(/^First release of `v3`/),
    });
    // With a key it answers the same (a public route authenticates a key it is sent, as /ping does).
    expect((await t.api.get('/changelog')).text).toBe(res.text);
  });

  it('is cacheable: a strong ETag, 304 with no body to a matching If-None-Match, 200 to another', async () => {
    const first = await request(t.server, 'GET', '/changelog', { host: t.clinic.host });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    for (const held of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await request(t.server, 'GET', '/changelog', {
        host: t.clinic.host,
        headers: { 'if-none-match': held },
      });
      expect([again.status, again.text, again.headers.etag], held).toEqual([304, '', etag]);
    }
    const stale = await request(t.server, 'GET', '/changelog', {
      host: t.clinic.host,
      headers: { 'if-none-match': '"stale"' },
    });
    expect([stale.status, stale.headers.etag, stale.text]).toEqual([200, etag, first.text]);
    // Other routes are not cached: their answers depend on the clinic's data.
    expect((await t.api.get('/me')).headers).toMatchObject({ 'cache-control': 'no-store' });
    expect((await t.api.get('/me')).headers.etag).toBeUndefined();
  });

  it('refuses an unknown parameter and an unknown clinic like every route', async () => {
    expectError(
      await request(t.server, 'GET', '/changelog?since=2026-01-01', { host: t.clinic.host }),
      422,
      'validation_failed',
    );
    expectError(await request(t.server, 'GET', '/changelog', { host: 'nobody.neptune.localhost' }), 404, 'not_found');
  });

  it('is in the document: public, its model named, 304 documented, the served body valid against it', async () => {
    const doc = new OpenApiDoc((await request(t.server, 'GET', '/openapi.json')).body as Doc);
    const op = doc.op('GET /changelog');
    expect(op.security).toEqual([]);
    expect(op.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Changelog' } } },
      headers: { ETag: expect.any(Object) },
    });
    expect(op.responses['304']).toBeDefined();
    expect(op.parameters?.map((p) => p.name)).toContain('If-None-Match');
    expect(Object.keys(doc.doc.components.schemas)).toEqual(
      expect.arrayContaining(['Changelog', 'ChangelogRelease', 'ChangelogChange', 'ChangelogDeprecation']),
    );
    const served = await request(t.server, 'GET', '/changelog', { host: t.clinic.host });
    expect(doc.problems(doc.responsePointer('GET /changelog', 200)!, served.body)).toEqual([]);
  });
});
