// CommonJS: `import ... from 'mcp42'` is compiled to `require('mcp42')`, which takes the `require`
// condition of the package's exports.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The installed @nestjs/core's version, read as a file (as in the ES module apps). */
export function installedNestVersion(): string {
  const manifest = readFileSync(join(__dirname, '..', 'node_modules', '@nestjs', 'core', 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/** The file `require('mcp42')` loads. */
export function mcp42Entry(): string {
  return require.resolve('mcp42');
}
