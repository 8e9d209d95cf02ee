/**
 * docs/decisions.md is the index of docs/decisions/, one file per decision. A file the index does not list
 * is never found, and a row whose file is gone or says something else misleads: so every file is listed
 * exactly once, every row leads to a file, and the row's title, date and status are the file's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const docs = path.resolve(__dirname, '../../docs');
const index = fs.readFileSync(path.join(docs, 'decisions.md'), 'utf8');
const files = fs.readdirSync(path.join(docs, 'decisions')).sort();

/** The index's rows: `| Date | Status | [Title](decisions/NNN-slug.md) — what it decided | Measured |`. */
const rows = [
  ...index.matchAll(/^\| ([^|]*) \| ([^|]*) \| \[(.+?)\]\(decisions\/([^)\s]+)\) — (.*?) \| (.*) \|$/gm),
].map(([, date, status, title, file, decided, measured]) => ({ date, status, title, file, decided, measured }));
/** Every link into decisions/ anywhere in the index, rows or not. */
const links = [...index.matchAll(/\]\(decisions\/([^)\s]*)\)/g)].map(([, file]) => file).filter((f) => f !== '');

/** A decision file's title, metadata block and the text after it. */
const read = (file: string) => {
  const text = fs.readFileSync(path.join(docs, 'decisions', file), 'utf8');
  const [head = '', meta = '', ...rest] = text.split('\n\n');
  const field = (name: string) => meta.match(new RegExp(`^- ${name}: (.+)$`, 'm'))?.[1];
  return {
    title: head.startsWith('# ') && !head.includes('\n') ? head.slice(2) : undefined,
    date: field('Date'),
    status: field('Status'),
    area: field('Area'),
    body: rest.join('\n\n').trim(),
  };
};

test('the index has a row for every link into decisions/', () => {
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.map((r) => r.file)).toEqual(links);
});

test('every file in docs/decisions/ is linked from the index exactly once', () => {
  expect(files.filter((f) => links.filter((l) => l === f).length !== 1)).toEqual([]);
});

test('every index link resolves to a decision file', () => {
  expect(links.filter((l) => !files.includes(l))).toEqual([]);
});

test('decision files are named NNN-slug.md, each number once', () => {
  expect(files.filter((f) => !/^\d{3}-[a-z0-9]+(-[a-z0-9]+)*\.md$/.test(f))).toEqual([]);
  const numbers = files.map((f) => f.slice(0, 3));
  expect(new Set(numbers).size).toBe(numbers.length);
});

test.each(files)('%s has a title, Date, Status, Area and text', (file) => {
  const decision = read(file);
  expect(decision.title).toMatch(/\S/);
  expect(decision.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(new Date(`${decision.date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(decision.date);
  expect(decision.status).toMatch(/^\w[\w ]*$/);
  expect(decision.area).toMatch(/\S/);
  expect(decision.body).not.toBe('');
});

test('each row states its file title, date and status, what it decided and what was measured', () => {
  const mismatched = rows.flatMap((row) => {
    if (!files.includes(row.file)) return [];
    const { title, date, status } = read(row.file);
    const wrong = [
      title !== row.title && `title "${row.title}" is "${title}"`,
      date !== row.date && `date ${row.date} is ${date}`,
      status !== row.status && `status ${row.status} is ${status}`,
      !/\S/.test(row.decided) && 'no decision',
      row.decided.length > 160 && 'decision over 160 characters',
      !/\S/.test(row.measured) && 'no measured column (— when nothing was)',
    ].filter(Boolean);
    return wrong.map((w) => `${row.file}: ${w}`);
  });
  expect(mismatched).toEqual([]);
});
