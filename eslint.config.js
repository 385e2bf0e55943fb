import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** The library, the sample app and the benchmarks: linted strictly, with type information. */
const STRICT_FILES = ['src/**/*.ts', 'sample-app/**/*.ts', 'bench/**/*.ts'];
const SPEC_FILES = ['**/*.spec.ts', '**/*.e2e-spec.ts'];

/** What async code gets wrong: a promise nobody waits for, or given where nothing waits; a case missed. */
const asyncRules = (severity) => ({
  '@typescript-eslint/no-floating-promises': severity,
  '@typescript-eslint/no-misused-promises': severity,
  // A default case counts as exhaustive: it handles the other values on purpose.
  '@typescript-eslint/switch-exhaustiveness-check': [severity, { considerDefaultExhaustiveForUnions: true }],
});

/**
 * The async rules for test/: off while test/ is restructured on another branch. Set to true once that
 * has landed, and fix what they find (they warn, and `npm run lint` allows no warning).
 */
const ASYNC_RULES_IN_TEST = false;

/** Type information from the tsconfig.json nearest to each file (scripts/ and docs/snippets/ have their own). */
const typed = { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } };

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
  ...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: STRICT_FILES, ignores: SPEC_FILES })),
  {
    files: STRICT_FILES,
    ignores: SPEC_FILES,
    rules: {
      ...asyncRules('error'),
      // Numbers in messages read as they should; anything else must be turned into text on purpose.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Handlers and checks answer `boolean | Promise<boolean>` (sync when they can): awaited together, on purpose.
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      // Rejections pass on what they were given (a caught error, `signal.reason`): wrapping would change what callers see.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // HandlerFailure wraps a handler's error on its way to the catch in the same file, which unwraps it.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'file', name: 'HandlerFailure', path: 'src/execution/running-call.ts' }] },
      ],
      // Nest modules are empty classes carrying @Module.
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],

      // Turned off, for this codebase as a whole:
      // - `!` states an invariant kept elsewhere (a flag checked, an index in range, a key known): the
      //   code is written as under noUncheckedIndexedAccess, where `array[index]!` is needed.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // - For the same reason: without noUncheckedIndexedAccess in tsconfig.json, every `array[index]!`
      //   is "unnecessary" to this rule (tsconfig.json cannot take it while test/ needs fixes for it).
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // - The library checks at run time what JavaScript callers, Redis and JSON hand it, whatever the
      //   types promise (options, definitions, records, `JSON.stringify` of anything), and reads state
      //   that callbacks change (`while (sampling)`): this rule calls each such check unnecessary.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // - `return writeJson(res, …)` ends an HTTP handler with its answer: a deliberate early-return style.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // - Nest's options (NestApplicationOptions…) and the DTOs of output schemas are classes that are
      //   filled in with object literals by design.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    },
  },
  {
    files: STRICT_FILES,
    languageOptions: typed,
  },
  {
    // The unit specs beside the sources: the recommended rules, and the async ones.
    files: ['src/**/*.spec.ts'],
    rules: asyncRules('error'),
  },
  {
    // The build and test scripts, and the snippets of the docs (each folder has its tsconfig.json).
    files: ['scripts/**/*.mjs', 'docs/snippets/**/*.ts'],
    languageOptions: typed,
    rules: asyncRules('error'),
  },
  {
    files: ['test/**/*.ts'],
    ...(ASYNC_RULES_IN_TEST ? { languageOptions: typed } : {}),
    rules: asyncRules(ASYNC_RULES_IN_TEST ? 'warn' : 'off'),
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
