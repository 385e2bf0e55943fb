// The package.json that ships: the repository's without what only development needs. npm packs the
// package.json on disk, so `prepack` swaps in the published one and `postpack` puts the repository's
// back (npm runs `postpack` from the scripts it read before `prepack`).
//
//   node scripts/pack-manifest.mjs strip [--dir <folder>]     package.json -> published form, the original kept aside
//   node scripts/pack-manifest.mjs restore [--dir <folder>]   the original back
// (--dir: another folder's package.json than the repository's, e.g. test/package's staging folder)
//
// Why: npm 11 warns about the `prepare` script of every installed package ("install-scripts …
// mcp42 (prepare: …)"), and the development scripts name files the package does not ship.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The fields of package.json that only this repository's development uses. */
export const DEVELOPMENT_FIELDS = ['scripts', 'devDependencies'];

/** The published form of a manifest (a copy: the argument is left alone). */
export function publishedManifest(manifest) {
  const published = { ...manifest };
  for (const field of DEVELOPMENT_FIELDS) delete published[field];
  return published;
}

const paths = (dir) => ({ manifest: join(dir, 'package.json'), kept: join(dir, '.package.json.before-pack') });

function strip(dir) {
  const { manifest, kept } = paths(dir);
  // A pack that failed between the two steps left the original aside: it is the one to keep.
  if (existsSync(kept)) renameSync(kept, manifest);
  const text = readFileSync(manifest, 'utf8');
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(publishedManifest(JSON.parse(text)), null, 2)}\n`);
}

function restore(dir) {
  const { manifest, kept } = paths(dir);
  if (existsSync(kept)) renameSync(kept, manifest);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, ...rest] = process.argv.slice(2);
  const dirIndex = rest.indexOf('--dir');
  const dir = dirIndex === -1 ? ROOT : resolve(rest[dirIndex + 1] ?? '.');
  if (command === 'strip') strip(dir);
  else if (command === 'restore') restore(dir);
  else {
    console.error('usage: node scripts/pack-manifest.mjs strip|restore [--dir <folder>]');
    process.exit(2);
  }
}
