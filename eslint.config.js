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
);
