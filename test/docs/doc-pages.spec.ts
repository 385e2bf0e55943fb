/**
 * The rules of the site's pages (./doc-pages.ts) on small pages: which fences count as inline code,
 * which JSON passes, which includes resolve.
 */
import { fenceProblems, fencesOf, includeProblems, includesOf } from './doc-pages.js';
import { ROOT } from '../package/packed-package.js';
import { join } from 'node:path';

const fence = (language: string, body: string, marker = '```') => `${marker}${language}\n${body}\n${marker}\n`;

describe('the rules of the pages of the site', () => {
  it('read fences of backticks and tildes, longer closers, and what a longer fence holds', () => {
    const page = [
      '# Title',
      '',
      fence('ts {1}', 'a'),
      '~~~json',
      '{}',
      '~~~~',
      '',
      fence('md', fence('ts', 'b'), '````'),
    ];
    expect(fencesOf(page.join('\n'))).toEqual([
      { line: 3, language: 'ts', body: 'a' },
      { line: 7, language: 'json', body: '{}' },
      { line: 11, language: 'md', body: '```ts\nb\n```\n' },
    ]);
  });

  it('refuse TypeScript and JavaScript blocks, naming the page and line', () => {
    for (const language of ['ts', 'typescript', 'TS', 'js', 'javascript', 'mjs']) {
      expect(fenceProblems(`text\n\n${fence(language, 'let a = 1;')}`, 'docs/x.md')).toEqual([
        expect.stringMatching(/^docs\/x\.md:3: a `\w+` block: put the code in a file under docs\/snippets\//),
      ]);
    }
    expect(fenceProblems(fence('bash', 'npm i mcp42') + fence('', 'plain'), 'docs/x.md')).toEqual([]);
  });

  it('take JSON that parses, and comments only in jsonc', () => {
    expect(fenceProblems(fence('json', '{ "mcpServers": {} }'), 'p.md')).toEqual([]);
    expect(fenceProblems(fence('jsonc', '{\n  // a comment\n  "a": 1,\n}'), 'p.md')).toEqual([]);
    expect(fenceProblems(fence('json', '{ // no\n "a": 1 }'), 'p.md')).toEqual([
      expect.stringMatching(/^p\.md:1: the json block does not parse \(.+\); use jsonc for comments$/),
    ]);
    expect(fenceProblems(fence('jsonc', '{ "a": }'), 'p.md')).toEqual([
      expect.stringMatching(/^p\.md:1: the jsonc block does not parse/),
    ]);
  });

  it('find includes with regions, highlights and labels, but not inside fences', () => {
    const page = [
      '<<< @/snippets/a/b.ts',
      '<<< @/snippets/a/b.ts#tool{2,3} [b.ts]',
      fence('md', '<<< @/snippets/not/this.ts'),
    ].join('\n');
    expect(includesOf(page)).toEqual([
      { line: 1, file: 'snippets/a/b.ts', region: undefined },
      { line: 2, file: 'snippets/a/b.ts', region: 'tool' },
    ]);
  });

  it('refuse includes of missing files and regions', () => {
    const docs = join(ROOT, 'docs');
    const page = [
      '<<< @/snippets/getting-started/weather.tools.ts#tool',
      '<<< @/snippets/getting-started/weather.tools.ts#nope',
      '<<< @/snippets/nope.ts',
    ].join('\n');
    expect(includeProblems(page, 'p.md', docs)).toEqual([
      expect.stringMatching(/^p\.md:2: includes region "nope" of snippets\/getting-started\/weather\.tools\.ts/),
      'p.md:3: includes snippets/nope.ts, which does not exist',
    ]);
  });
});
