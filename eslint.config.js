import tseslint from 'typescript-eslint';
import drizzle from 'eslint-plugin-drizzle';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default tseslint.config(
  { ignores: ['node_modules', '.next', 'data', 'db/migrations', 'next-env.d.ts', 'coverage', 'bench/.results'] },
  ...tseslint.configs.recommended,
  {
    plugins: { drizzle },
    rules: {
      // A delete or update without where would touch every tenant's rows.
      'drizzle/enforce-delete-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
      'drizzle/enforce-update-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The SQLite driver's major depends on the running Node (12 on Node 20, 13 from 22: docs/decisions.md):
  // everything loads it through db/sqlite-driver.ts, or Node 22 and 24 fail to load the other's binary.
  {
    ignores: ['db/sqlite-driver.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'better-sqlite3', message: 'Import the driver from db/sqlite-driver.ts.' }] },
      ],
    },
  },
  // Layers point down only: each file of server/ and db/ is on one floor (FLOORS below) and imports only
  // from its own floor and those beneath it, but for types.
  {
    files: ['server/**/*.ts', 'db/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/test/**'],
    plugins: { layers: { rules: { 'point-down': pointDownRule() } } },
    rules: { 'layers/point-down': 'error' },
  },
  // The database layer stands alone: nothing in db/ imports server/, values included.
  {
    files: ['db/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**'], message: 'db/ imports nothing of server/ (eslint.config.js).' }] },
      ],
    },
  },
  // The portal pages are bundled by Next: server code reaches them as types only, but for the bridge to the
  // running server, the permission table, the key groups and the words of sentences (small modules without dependencies).
  {
    files: ['app/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(server|db)/(?!portal/bridge$|auth/permissions$|auth/key-groups$|values/words$)',
              allowTypeImports: true,
              message:
                'Portal pages reach the server through server/portal/bridge.ts or the portal router over HTTP (eslint.config.js).',
            },
          ],
        },
      ],
    },
  },
);

/**
 * The floors of server/ and db/, top to bottom, each a line on what it holds (docs/layout.md says more).
 * A file imports from its own floor and the floors beneath it; `import type` may reach up (types leave no
 * trace at run time). Paths are the repository's, without the extension; a folder holds what is under it,
 * and the longest path naming a file decides its floor (a few files sit below or above their folder).
 */
const FLOORS = [
  [
    'entry: the processes and commands that put the rest together, and the metrics and traces they switch on',
    ['server/main', 'server/serve', 'server/app', 'server/cli', 'server/seed', 'server/observability'],
  ],
  ["jobs: the periodic work the scheduler runs, each job a lower floor's sweep or rule", ['server/jobs']],
  [
    'transports: HTTP in and out (REST gateway, portal, MCP, the OAuth endpoints, health)',
    [
      'server/rest',
      'server/portal',
      'server/mcp',
      'server/oauth/handler',
      'server/health',
      'server/response',
      'server/client-error',
    ],
  ],
  [
    'procedures: the tRPC router, one file per resource (and the changelog, which lists its deprecated routes)',
    ['server/routers', 'server/trpc', 'server/rest/changelog'],
  ],
  [
    'descriptions: what /schema, OpenAPI and MCP say of the resources and events, and the route table',
    ['server/resources/describe', 'server/events/catalogue', 'server/rest/routes'],
  ],
  ['delivery: the webhook worker', ['server/webhooks']],
  ['domain: business rules, no HTTP (OAuth grants and clients among them)', ['server/domain', 'server/oauth']],
  ['auth: keys, members, sessions, permissions, secrets at rest', ['server/auth']],
  ['events: the audit trail and the outbox', ['server/events']],
  ['resources: one declaration per resource, and the data access they share', ['server/resources']],
  ['list: the generic list engine', ['server/list']],
  [
    'services: the scheduler, files, mail, outbound HTTP, metrics hooks, tenancy, configuration, error mapping',
    [
      'server/scheduler',
      'server/files',
      'server/outbound',
      'server/observability/hooks',
      'server/mail',
      'server/tenancy',
      'server/env',
      'server/logger',
      'server/request-info',
      'server/security-headers',
      'server/shortcuts',
      'server/context',
      'server/rest/errors',
    ],
  ],
  ['db: the schema, migrations and the client (it imports nothing of server/: the rule below)', ['db']],
  [
    'values: value rules and plain data (money, wall times, words, key groups, event types, the API error)',
    ['server/values', 'server/auth/key-groups', 'server/events/types', 'server/errors'],
  ],
];

const ROOT = path.dirname(fileURLToPath(import.meta.url));
/** The floor of a file (its index in FLOORS), or -1 outside them. */
function floorOf(file) {
  const rel = path
    .relative(ROOT, file)
    .replace(/\\/g, '/')
    .replace(/\.tsx?$/, '')
    .replace(/\/index$/, '');
  // The longest path that holds the file decides: a file may sit on another floor than its folder.
  let floor = -1;
  let longest = -1;
  FLOORS.forEach(([, paths], i) => {
    for (const p of paths)
      if ((rel === p || rel.startsWith(`${p}/`)) && p.length > longest) [floor, longest] = [i, p.length];
  });
  return floor;
}

/** The rule: an import (static, re-export or dynamic) of a relative path on a floor above is refused. */
function pointDownRule() {
  return {
    meta: { type: 'problem', schema: [] },
    create(context) {
      const from = floorOf(context.filename);
      // Every file is on a floor: a new folder or top-level file is placed before it can import anything.
      if (from < 0)
        return {
          Program: (node) =>
            context.report({ node, message: 'Not on a floor: add its folder or file to FLOORS (eslint.config.js).' }),
        };
      const check = (node, source, typeOnly) => {
        if (typeOnly || typeof source !== 'string' || !source.startsWith('.')) return;
        const to = floorOf(path.resolve(path.dirname(context.filename), source));
        if (to < 0 || to >= from) return;
        context.report({
          node,
          message: `Layers point down only: this file is on the floor "${FLOORS[from][0].split(':')[0]}", '${source}' on "${FLOORS[to][0].split(':')[0]}" above it (eslint.config.js FLOORS).`,
        });
      };
      const typeOnly = (node) =>
        node.importKind === 'type' ||
        node.exportKind === 'type' ||
        (node.specifiers?.length > 0 &&
          node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
      return {
        ImportDeclaration: (node) => check(node, node.source.value, typeOnly(node)),
        ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, typeOnly(node)),
        ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
        ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
      };
    },
  };
}
