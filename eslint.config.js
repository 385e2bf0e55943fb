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
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
  prettier,
);
