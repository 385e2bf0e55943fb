const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['@swc/jest'] },
};

/**
 * Two projects in one run: every spec with its apps on Express, then the end-to-end specs (the ones
 * that start an application over HTTP) again on Fastify.
 * @type {import('jest').Config}
 */
export default {
  testTimeout: 20000,
  // Jest keeps every test file's module registry alive: run in one process, as it would on a 2-core
  // machine, the heap reached V8's 4.3 GB limit two thirds of the way through and crawled in GC
  // (apps took over 20 s to start). A worker restarted past 1.5 GB keeps one file at a time, bounded.
  workerIdleMemoryLimit: '1500MB',
  projects: [
    {
      ...shared,
      displayName: 'express',
      roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/sample-app'],
      testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
      // The consumer apps' specs run inside those apps (npm run test:consumers), against the packed package.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/consumers/'],
      setupFiles: ['<rootDir>/test/setup/express.ts'],
    },
    {
      ...shared,
      displayName: 'fastify',
      roots: ['<rootDir>/test'],
      // Every spec under test/e2e/, in its folder by concern (test/e2e/README.md). The site's specs
      // (test/docs/) serve none of ours: their apps run as users start them.
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/setup/fastify.ts'],
    },
  ],
};
