// The four consumer apps of `npm run test:consumers`: one variant a line of the matrix, written into
// test/consumers/<name>/ from this template by scripts/consumer-apps.mjs. Each app differs from the
// others only in what its variant names:
//   - nest: the Nest major its package.json pins (the exact versions, with the rest of its
//     dependencies, are in its committed package.json and package-lock.json, which npm keeps in step);
//   - moduleSystem: 'cjs' or 'esm': module-system/<it>.ts becomes the app's src/module-system.ts, and
//     an 'esm' app's package.json says "type": "module";
//   - platform: 'express' or 'fastify': platform/<it>.ts becomes src/platform.ts (the package.json
//     depends on @nestjs/platform-<it>);
//   - runner: the test runner of `npm test`, set up as `nest new` sets it up for that Nest major:
//     'jest' (ts-jest, its config in package.json) for the CommonJS apps, 'vitest' (with SWC:
//     runner/vitest.config.ts) for the ES module apps; it runs kit/echo.kit.spec.ts, which tests a
//     guarded tool through mcp42/testing in both eras;
//   - compilerOptions: what tsc is told beside tsconfig.base.json;
//   - about: what the app proves, written at the top of each of its generated files.

/** @type {readonly { name: string, nest: number, moduleSystem: 'cjs' | 'esm', platform: 'express' | 'fastify', runner: 'jest' | 'vitest', compilerOptions: Record<string, string>, about: string }[]} */
export const VARIANTS = [
  {
    name: 'nest11-cjs-express',
    nest: 11,
    moduleSystem: 'cjs',
    platform: 'express',
    runner: 'jest',
    compilerOptions: { module: 'commonjs' },
    about: 'Nest 11 (latest 11.x) compiled to CommonJS as `nest new` sets it up (tsc `module: commonjs`), on Express',
  },
  {
    name: 'nest11-cjs-fastify',
    nest: 11,
    moduleSystem: 'cjs',
    platform: 'fastify',
    runner: 'jest',
    compilerOptions: { module: 'node16', moduleResolution: 'node16' },
    about:
      'Nest 11 at its lowest (11.0.0, platform-fastify 11.0.3) on Fastify, compiled to CommonJS by tsc ' +
      '`module: node16` in a package without "type": "module": TypeScript resolves mcp42 through the ' +
      '`require` condition of its exports',
  },
  {
    name: 'nest12-esm-express',
    nest: 12,
    moduleSystem: 'esm',
    platform: 'express',
    runner: 'vitest',
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
    about:
      'Nest 12 at its lowest usable (12.0.1) written as ES modules ("type": "module", tsc `module: nodenext`), on Express',
  },
  {
    name: 'nest12-esm-fastify',
    nest: 12,
    moduleSystem: 'esm',
    platform: 'fastify',
    runner: 'vitest',
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
    about: 'Nest 12 (latest 12.x) written as ES modules ("type": "module", tsc `module: nodenext`), on Fastify',
  },
];
