import tseslint from 'typescript-eslint';
import drizzle from 'eslint-plugin-drizzle';

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
  // Layers point down only: routers → domain → resources (declarations, data access) → list → values → db.
  layer('server/domain/**', ['routers', 'rest', 'trpc']),
  layer('server/resources/**', ['domain', 'routers', 'rest', 'trpc']),
  layer('server/list/**', ['domain', 'routers', 'rest', 'trpc'], ['resources']),
  layer('server/values/**', ['domain', 'resources', 'list', 'routers', 'rest', 'trpc', 'db']),
  layer('db/**', ['server']),
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

/** Files under `files` may not import from the folders named (nor, but for types, from `typesOnly`). */
function layer(files, forbidden, typesOnly = []) {
  const group = (name) => [`**/${name}`, `**/${name}/**`];
  return {
    files: [files],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: forbidden.flatMap(group), message: 'Layers point down only (eslint.config.js).' },
            ...typesOnly.map((name) => ({
              group: group(name),
              allowTypeImports: true,
              message: 'Only types may come from a higher layer.',
            })),
          ],
        },
      ],
    },
  };
}
