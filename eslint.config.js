import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // test/consumers/<app>/dist: the consumer apps' compiled output (scripts/consumers.mjs).
    ignores: [
      'dist/**',
      'site/**',
      'docs/api/**',
      'docs/.vitepress/cache/**',
      'coverage/**',
      'node_modules/**',
      'conformance-results/**',
      'test/consumers/*/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    // No consistent-type-imports: with emitDecoratorMetadata, a class imported only as a constructor
    // parameter type is still needed at run time for dependency injection.
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The consumer apps' sources, written from test/consumers/template/ (scripts/consumer-apps.mjs),
    // which is linted in their place.
    ignores: ['test/consumers/*/src/**'],
  },
  {
    // Type-aware rules for the tests: a promise nobody awaits lets a test pass before its assertions
    // ran, or fail in the next one.
    files: ['test/**/*.ts'],
    // The consumer apps and their template are projects of their own (tsconfig.json excludes them).
    ignores: ['test/consumers/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
  prettier,
);
