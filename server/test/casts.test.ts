/**
 * Type casts in the domain and the routers stay few and explained (issue 39 §2): each `as T` or `<T>x`
 * (not `as const`) silences the compiler where a rule lives, so at most ten, each under a comment that
 * says why. Counted with TypeScript's own parser, so a cast split over lines or nested is still one.
 * Constant tables' keys (server/values/keys.ts) and a generic resource's record (recordOf) have one
 * typed helper each instead of a cast at every use.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = path.resolve(__dirname, '../..');
const FOLDERS = ['server/domain', 'server/routers'];
const MAX = 10;

const sources = (dir: string): string[] =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));

const isCast = (n: ts.Node) =>
  (ts.isAsExpression(n) && !(ts.isTypeReferenceNode(n.type) && n.type.typeName.getText() === 'const')) ||
  ts.isTypeAssertionExpression(n);

interface Cast {
  at: string;
  text: string;
  explained: boolean;
}

/** The casts of a file, each with whether a comment ends its line or sits just above its statement. */
function castsOf(file: string): Cast[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: Cast[] = [];
  const visit = (n: ts.Node) => {
    if (isCast(n)) {
      let statement: ts.Node = n;
      while (statement.parent && !ts.isBlock(statement.parent) && !ts.isSourceFile(statement.parent))
        statement = statement.parent;
      const line = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
      const above = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
      const trailing = /\/\/|\/\*/.test(lines[src.getLineAndCharacterOfPosition(n.getEnd()).line]);
      found.push({
        at: `${file}:${line + 1}`,
        text: n.getText(src).replace(/\s+/g, ' ').slice(0, 100),
        explained: above.length > 0 || trailing,
      });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

const casts = FOLDERS.flatMap(sources).flatMap(castsOf);

test(`at most ${MAX} casts in ${FOLDERS.join(' and ')}`, () => {
  expect(casts.map((c) => `${c.at}: ${c.text}`).length, casts.map((c) => c.at).join('\n')).toBeLessThanOrEqual(MAX);
});

test('every cast there has a comment saying why', () => {
  expect(casts.filter((c) => !c.explained).map((c) => `${c.at}: ${c.text}`)).toEqual([]);
});

test('the counter sees casts (a file of known casts)', () => {
  const probe = path.join('server', 'test', 'tmp-casts-probe.ts');
  fs.writeFileSync(
    path.join(root, probe),
    'const a = 1 as number;\n// why\nconst b = <string>(<unknown>a);\nconst c = [1] as const;\n',
  );
  try {
    const seen = castsOf(probe);
    expect(seen.map((c) => [c.text, c.explained])).toEqual([
      ['1 as number', false],
      ['<string>(<unknown>a)', true],
      ['<unknown>a', true],
    ]);
  } finally {
    fs.rmSync(path.join(root, probe));
  }
});
