/**
 * Every relative link in the README and docs/ leads somewhere: the file exists, and an anchor names a
 * heading of it (GitHub's slugs). A moved or renamed section fails here, not in a reader's browser.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const root = path.resolve(__dirname, '../..');
const pages = [
  'README.md',
  'CHANGELOG.md',
  ...fs
    .readdirSync(path.join(root, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f)),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (file: string) =>
  new Set(
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ''))),
  );

test('the README is a front door: under 300 lines', () => {
  expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThan(300);
});

test.each(pages)('every relative link in %s resolves', (page) => {
  const text = fs.readFileSync(path.join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target)) continue;
    const [file, anchor] = target.split('#');
    const resolved = file ? path.resolve(root, path.dirname(page), file) : path.join(root, page);
    if (!fs.existsSync(resolved)) broken.push(`${target} (no such file)`);
    else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
      broken.push(`${target} (no such heading)`);
  }
  expect(broken).toEqual([]);
});
