/**
 * The layer rule (eslint.config.js FLOORS, `layers/point-down`) refuses what it promises to refuse: an
 * import that reaches a higher floor (static, re-export or dynamic), and a file on no floor; a type may
 * reach up, and a lower floor may be imported. Linted as text at the paths named, through the project's
 * own config, so the rule is proven here and the tree is held to it by the lint stage.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, expect, test } from 'vitest';

const root = path.resolve(__dirname, '../..');
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The layer rule's messages for `code` linted as the file at `file`. */
async function layerMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'layers/point-down').map((m) => m.message);
}

test.each([
  ['a static import', "import { createMember } from '../domain/team';\nexport const x = createMember;\n"],
  ['a re-export', "export { createMember } from '../domain/team';\n"],
  ['a dynamic import', "export const load = () => import('../domain/team');\n"],
])('%s from values/ up to the domain is refused, naming both floors', async (_, code) => {
  expect(await layerMessages('server/values/probe.ts', code)).toEqual([
    expect.stringMatching(/floor "values", '\.\.\/domain\/team' on "domain" above it/),
  ]);
});

test('a type may reach up; a lower floor may be imported', async () => {
  const code = [
    "import type { NewMember } from '../domain/team';",
    "import { namesOf } from '../values/keys';",
    'export const f = (m: NewMember) => namesOf(m);',
    '',
  ].join('\n');
  expect(await layerMessages('server/domain/probe.ts', code)).toEqual([]);
});

test('a file sits on the floor of the longest path naming it: key-groups is plain data, below the rest of auth/', async () => {
  const code = "export * from './members';\n";
  expect(await layerMessages('server/auth/probe.ts', code)).toEqual([]);
  expect(await layerMessages('server/auth/key-groups.ts', code)).toEqual([
    expect.stringMatching(/floor "values", '\.\/members' on "auth" above it/),
  ]);
});

test('a file on no floor fails lint until its folder is placed', async () => {
  expect(await layerMessages('server/unplaced/probe.ts', 'export const y = 1;\n')).toEqual([
    expect.stringMatching(/Not on a floor/),
  ]);
});
