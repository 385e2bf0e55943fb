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
  projects: [
    {
      ...shared,
      displayName: 'express',
      roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/sample-app'],
      testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/setup/express.ts'],
    },
    {
      ...shared,
      displayName: 'fastify',
      roots: ['<rootDir>/test'],
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/test/docs/**/*.spec.ts'],
      setupFiles: ['<rootDir>/test/setup/fastify.ts'],
    },
  ],
};
