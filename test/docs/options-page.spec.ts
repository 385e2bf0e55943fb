/**
 * The options reference generator (scripts/docs-options.mjs), run as `npm run docs` runs it: on a
 * fixture of every shape an options interface takes (./fixtures/options-fixture.interface.ts), then on
 * the real McpModuleOptions, whose every property must have its entry whatever its grouping.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const SCRIPT = resolve('scripts', 'docs-options.mjs');
const FIXTURE = 'test/docs/fixtures/options-fixture.interface.ts';
const OPTIONS_FILE = 'src/interfaces/mcp-module-options.interface.ts';

describe('the options reference generator (scripts/docs-options.mjs)', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp42-options-page-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the script with `args` and an `--out` of its own; the page it wrote, or why it failed. */
  function generate(args: string[]): { status: number | null; page: string; stderr: string } {
    const out = join(dir, `page-${Math.random().toString(36).slice(2)}.md`);
    const result = spawnSync(process.execPath, [SCRIPT, ...args, '--out', out], { encoding: 'utf8', timeout: 30_000 });
    let page = '';
    try {
      page = readFileSync(out, 'utf8');
    } catch {
      // Not written: the status and stderr say why.
    }
    return { status: result.status, page, stderr: result.stderr };
  }

  const headings = (page: string) => page.split('\n').filter((line) => /^#{1,6} /.test(line));

  /** The lines of the entry under `heading`, up to the next heading. */
  function entry(page: string, heading: string): string {
    const lines = page.split('\n');
    const start = lines.indexOf(heading);
    if (start < 0) throw new Error(`no heading ${heading} in:\n${page}`);
    const end = lines.findIndex((line, index) => index > start && /^#{1,6} /.test(line));
    return lines
      .slice(start + 1, end < 0 ? undefined : end)
      .filter(Boolean)
      .join('\n');
  }

  describe('on a fixture', () => {
    let page: string;

    beforeAll(() => {
      const result = generate(['--source', FIXTURE, '--root', 'FixtureOptions', '--root', 'FixtureExtras']);
      expect(result).toEqual({ status: 0, page: expect.any(String), stderr: '' });
      page = result.page;
    });

    it('has a section per root, then one per group in the order a reader meets them, recursively', () => {
      expect(headings(page)).toEqual([
        '# Options reference',
        '## FixtureOptions {#fixtureoptions}',
        '### `name` {#name}',
        '### `limits` {#limits}',
        '### `store` {#store}',
        '### `tls` {#tls}',
        '### `retry` {#retry}',
        '### `hosts` {#hosts}',
        '### `sessions` {#sessions}',
        '### `imported` {#imported}',
        '### `maxBody` {#maxbody}',
        '## FixtureExtras {#fixtureextras}',
        '### `path` {#path}',
        '## `limits` {#limits-options}',
        '### `limits.bodyBytes` {#limits-bodybytes}',
        '### `limits.perKind` {#limits-perkind}',
        '### `limits.fallback` {#limits-fallback}',
        '## `tls` {#tls-options}',
        '### `tls.cert` {#tls-cert}',
        '## `retry` {#retry-options}',
        '### `retry.attempts` {#retry-attempts}',
        '## `sessions` {#sessions-options}',
        '### `sessions.max` {#sessions-max}',
        '## `limits.perKind` {#limits-perkind-options}',
        '### `limits.perKind.tools` {#limits-perkind-tools}',
        '### `limits.perKind.prompts` {#limits-perkind-prompts}',
        // Met at three paths: named by its interface, once.
        '## FixtureRate {#fixturerate}',
        '### `perSecond` {#fixturerate-persecond}',
      ]);
      expect(entry(page, '## FixtureRate {#fixturerate}')).toContain(
        'Used by `limits.fallback`, `limits.perKind.tools`, `limits.perKind.prompts`.',
      );
    });

    it('gives each entry its type as written, whether it is required, its default and its description', () => {
      expect(entry(page, '### `name` {#name}')).toBe(
        "**Type** `string` · **Required**\nThe server's name, announced to the limits.",
      );
      expect(entry(page, '### `hosts` {#hosts}')).toBe(
        "**Type** `readonly string[]` · **Default** `['localhost']`\nHost names served.",
      );
      expect(entry(page, '### `limits.bodyBytes` {#limits-bodybytes}')).toBe(
        '**Type** `number` · **Default** `1024` (1 KiB)\nBytes of a body; &lt;more> gets 413.',
      );
      expect(entry(page, '### `limits` {#limits}')).toBe(
        '**Type** `FixtureLimits` · **Default** none\nLimits of a connection.\nIts fields: [FixtureLimits](#limits-options).',
      );
      expect(entry(page, '### `maxBody` {#maxbody}')).toBe(
        '**Type** `number`\n**Deprecated.** Use `limits.bodyBytes`.\nBytes of a body.',
      );
    });

    it('links a union member, an inline literal and an alias of a literal as groups, and leaves ports and other files as type names', () => {
      expect(entry(page, '### `tls` {#tls}')).toContain('**Type** `boolean | FixtureTlsOptions`');
      expect(entry(page, '### `tls` {#tls}')).toContain('Its fields: [FixtureTlsOptions](#tls-options).');
      expect(entry(page, '### `retry` {#retry}')).toContain('**Type** `{ attempts?: number; }`');
      expect(entry(page, '### `retry` {#retry}')).toContain('Its fields: [`retry`](#retry-options).');
      expect(entry(page, '## `sessions` {#sessions-options}')).toBe('Type `FixtureSessions`.\nHow sessions are kept.');
      expect(entry(page, '### `store` {#store}')).toBe('**Type** `FixtureStore`\nWhere state is kept.');
      expect(entry(page, '### `imported` {#imported}')).toBe(
        '**Type** `FixtureImported`\nImported from another file: a type name, not a group.',
      );
    });

    it('links every in-page anchor to a heading of the page', () => {
      const ids = new Set([...page.matchAll(/\{#([^}]+)\}$/gm)].map((match) => match[1]));
      const anchors = [...page.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]);
      expect(anchors.length).toBeGreaterThan(0);
      expect(anchors.filter((anchor) => !ids.has(anchor))).toEqual([]);
    });
  });

  it('fails, naming the interface, when a root is not in the sources', () => {
    const result = generate(['--source', FIXTURE, '--root', 'NoSuchOptions']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('no interface NoSuchOptions in');
  });

  it("gives every property of McpModuleOptions and McpModuleExtras an entry, from the module's own file", () => {
    const result = generate([]);
    expect(result.status).toBe(0);
    const program = ts.createProgram([resolve(OPTIONS_FILE)], { noEmit: true, types: [] });
    const checker = program.getTypeChecker();
    const names = program
      .getSourceFile(resolve(OPTIONS_FILE))!
      .statements.filter(ts.isInterfaceDeclaration)
      .filter((declaration) => ['McpModuleOptions', 'McpModuleExtras'].includes(declaration.name.text))
      .flatMap((declaration) =>
        checker.getPropertiesOfType(checker.getTypeAtLocation(declaration)).map((property) => property.name),
      );
    expect(names).toEqual(expect.arrayContaining(['name', 'version', 'path', 'guards', 'isGlobal']));
    const entries = new Set(headings(result.page).map((heading) => /^### `([^`]+)`/.exec(heading)?.[1]));
    expect(names.filter((name) => !entries.has(name))).toEqual([]);
  });
});
