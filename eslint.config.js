// Lint runs as part of `npm test`. Besides the recommended rules it enforces the layer direction
// described in docs/architecture.md: the wire contracts and the server's pure domain must not
// depend on transport, storage or UI libraries.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const infrastructure = ['fastify', '@fastify/*', 'kysely', 'better-sqlite3', 'pg', 'ioredis', 'pino', 'react', 'react-dom'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // No source file over 400 lines (docs/architecture.md): a file that grows past it is split by
    // what its parts do.
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: [...infrastructure, 'node:*'], message: 'The contracts package is shared with the browser: zod only.' }],
      }],
    },
  },
  {
    files: ['packages/trading-math/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: [...infrastructure, 'ws', 'node:*', 'zod'], message: 'The trading math is pure and shared with the browser: decimal.js only.' }],
      }],
    },
  },
  {
    files: ['server/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: [...infrastructure, 'ws', 'node:*', 'zod'], message: 'The domain layer is pure: no I/O, transport, storage or UI imports.' },
          { group: ['**/storage/**', '**/services/**', '**/transport/**', '**/market/**', '**/trading/**', '**/bus/**'], message: 'The domain layer may not import outer layers.' },
        ],
      }],
    },
  },

  // A bound LIMIT makes SQLite prepare the statement again on every run (storage/prepared.ts).
  {
    files: ['server/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.property.name='limit'][arguments.length=1]:not([arguments.0.callee.name='rowLimit']):not([arguments.0.name='rows'])",
        message: 'A row limit is written into the statement: .limit(rowLimit(n)), or the `rows` a prepared query is handed (storage/prepared.ts).',
      }],
    },
  },

  // The server's floors, inner to outer: domain; storage and bus; services; market and trading;
  // transport and cluster; plugins; app. A file imports from its own floor or those below it.
  ...[
    { files: ['server/src/storage/**/*.ts', 'server/src/bus/**/*.ts'], above: ['services', 'market', 'trading', 'transport', 'cluster', 'plugins'] },
    { files: ['server/src/services/**/*.ts'], above: ['market', 'trading', 'transport', 'cluster', 'plugins'] },
    { files: ['server/src/market/**/*.ts', 'server/src/trading/**/*.ts'], above: ['transport', 'cluster', 'plugins'] },
    { files: ['server/src/transport/**/*.ts', 'server/src/cluster/**/*.ts'], above: ['plugins'] },
  ].map(({ files, above }) => ({
    files,
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: above.map((floor) => `**/${floor}/**`), message: 'Imports go down the server\'s floors, never up (docs/architecture.md).' }],
      }],
    },
  })),
);
