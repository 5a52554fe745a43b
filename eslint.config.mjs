import path from 'node:path';
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import { importViolations } from './scripts/import-graph.mjs';

const root = import.meta.dirname;
// Built once per lint run (the whole lib/ graph is needed to see a cycle), keyed by absolute file.
let violations;
const violationsOf = (file) => {
  if (!violations) {
    violations = new Map();
    for (const v of importViolations(root)) violations.set(v.file, [...(violations.get(v.file) ?? []), v]);
  }
  return violations.get(path.resolve(file)) ?? [];
};

/**
 * Fails on an import that closes a cycle between lib folders (or sub-folders of one), a domain import from
 * lib/chain, or an import of app/ from components/ (scripts/import-graph.mjs).
 */
const noLibCycle = {
  meta: { type: 'problem', schema: [], docs: { description: 'lib folders import each other one way only; components never import app' } },
  create(context) {
    const found = violationsOf(context.filename);
    return {
      Program(node) {
        for (const v of found) context.report({ node, loc: { line: v.line, column: 0 }, message: `${v.specifier}: ${v.message}` });
      },
    };
  },
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    '.data/**',
    'node_modules/**',
    'test-results/**',
    'playwright-report/**',
    'db/migrations/**',
    'next-env.d.ts',
    'examples/client/schema.d.ts',
  ]),
  {
    rules: {
      // Test helpers and JSON bodies are loosely typed on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['lib/**/*.ts', 'lib/**/*.tsx', 'components/**/*.ts', 'components/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { gateway: { rules: { 'no-lib-cycle': noLibCycle } } },
    rules: { 'gateway/no-lib-cycle': 'error' },
  },
]);
