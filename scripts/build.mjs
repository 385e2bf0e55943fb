// `npm run build`: empties dist/ and makes both builds at once (two tsc processes side by side):
//
//   - the development build, tsc -p tsconfig.build.json: src, sample-app, test/conformance and bench
//     as ES modules to dist/src, dist/sample-app, dist/test, dist/bench (what `npm start`,
//     `npm run conformance` and `npm run bench` run);
//   - the published build, scripts/build-package.mjs: dist/cjs and dist/esm (what `npm pack` ships).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from './build-package.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function developmentBuild() {
  return new Promise((resolveRun, reject) => {
    // tsc prints its diagnostics on stdout: passed through as they come.
    const child = spawn(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolveRun();
      else reject(new Error(`tsc -p tsconfig.build.json failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
const results = await Promise.allSettled([developmentBuild(), buildPackage(join(ROOT, 'dist'))]);
const failures = results.filter((result) => result.status === 'rejected');
for (const failure of failures)
  console.error(failure.reason instanceof Error ? failure.reason.message : failure.reason);
process.exit(failures.length === 0 ? 0 : 1);
