/**
 * The README is the package's front door: its one code example is the site's snippet
 * docs/snippets/readme/main.ts, shown as it is. The snippet is compiled against the packed package,
 * started and called by ./docs-snippets.e2e-spec.ts; this checks that the README shows that file, so
 * the example a user copies from npm or GitHub is the one that ran.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../package/packed-package.js';
import { fencesOf } from './doc-pages.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SNIPPET = readFileSync(join(ROOT, 'docs', 'snippets', 'readme', 'main.ts'), 'utf8');

describe('the README', () => {
  it('shows one TypeScript example: docs/snippets/readme/main.ts, as it is', () => {
    const examples = fencesOf(README).filter((fence) => ['ts', 'typescript'].includes(fence.language));

    expect(examples.map((fence) => fence.body.trim())).toEqual([SNIPPET.trim()]);
  });
});
