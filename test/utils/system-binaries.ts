import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';

/**
 * The system binaries the tests drive, found as `scripts/test-components.mjs` (npm test's first step)
 * finds them: the variable when set, else the first of the names on the PATH.
 */
function systemBinary(variable: string, names: readonly string[]): string | undefined {
  const configured = process.env[variable];
  if (configured) return configured;
  for (const name of names) {
    for (const folder of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
      const candidate = resolve(folder, name);
      try {
        if (!statSync(candidate).isFile()) continue;
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // Not in this folder.
      }
    }
  }
  return undefined;
}

/** `REDIS_SERVER`, else `redis-server` on the PATH. */
export function redisServerPath(): string | undefined {
  return systemBinary('REDIS_SERVER', ['redis-server']);
}

/** `CHROMIUM_PATH`, else `chromium` or `chromium-browser` on the PATH. */
export function chromiumPath(): string | undefined {
  return systemBinary('CHROMIUM_PATH', ['chromium', 'chromium-browser']);
}

/** What to do when one is missing: npm test's first step installs it or says how. */
export const MISSING_BINARY_ADVICE =
  'run `node scripts/test-components.mjs` (npm test runs it first) to install it or learn how';
