// ES modules: `import ... from 'mcp42'` stays an import, which takes the `import` condition of the
// package's exports (its ES module wrapper).
import { readFileSync } from 'node:fs';

/** The installed @nestjs/core's version (read as a file: @nestjs/core 12.0.x does not export its package.json). */
export function installedNestVersion(): string {
  const manifest = readFileSync(new URL('../node_modules/@nestjs/core/package.json', import.meta.url), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/** The file `import('mcp42')` loads. */
export function mcp42Entry(): string {
  return import.meta.resolve('mcp42');
}
