import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The script npm test runs first (`pretest`), whose rules these binaries are found by. */
const SCRIPT = 'scripts/test-components.mjs';

interface ComponentsModule {
  readonly COMPONENTS: readonly { readonly label: string }[];
  locate(component: { readonly label: string }): { readonly path?: string; readonly problem?: string };
}

/** The repository's root: above this file, whether it runs from test/utils or dist/test/utils. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, SCRIPT))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${SCRIPT} not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

let components: Promise<ComponentsModule> | undefined;

/** Where the component labelled `label` is, found exactly as npm test's first step finds it. */
async function located(label: string): Promise<string | undefined> {
  components ??= import(pathToFileURL(join(repositoryRoot(), SCRIPT)).href) as Promise<ComponentsModule>;
  const module = await components;
  const component = module.COMPONENTS.find((entry) => entry.label === label);
  if (!component) throw new Error(`${SCRIPT} knows no component ${label}`);
  return module.locate(component).path;
}

/** `REDIS_SERVER`, else `redis-server` on the PATH. */
export function redisServerPath(): Promise<string | undefined> {
  return located('redis-server');
}

/** `CHROMIUM_PATH`, else Chromium or Google Chrome on the PATH (never Ubuntu's snap wrapper). */
export function chromiumPath(): Promise<string | undefined> {
  return located('chromium');
}

/** What to do when one is missing: npm test's first step installs it or says how. */
export const MISSING_BINARY_ADVICE = `run \`node ${SCRIPT}\` (npm test runs it first) to install it or learn how`;
