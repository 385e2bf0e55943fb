/**
 * What the pages of the documentation site (docs/) may hold, as the snippet spec checks it: no inline
 * TypeScript or JavaScript (code comes from compiled files under docs/snippets/, included with
 * `<<< @/snippets/…`), JSON that parses, and includes of files and regions that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** Fence languages whose code must come from a snippet file. */
const CODE_LANGUAGES = new Set(['ts', 'typescript', 'tsx', 'mts', 'cts', 'js', 'javascript', 'jsx', 'mjs', 'cjs']);

/** Generated into docs/ by `npm run docs` (git-ignored): not written by hand, not checked here. */
const GENERATED = ['api/', 'reference/options.md'];

/** Not pages: the snippets (VitePress's `srcExclude`) and VitePress's own folder. */
const NOT_PAGES = ['snippets/', '.vitepress/'];

/** The hand-written pages under `docsDir`, as paths relative to it (`guide/tools.md`), sorted. */
export function writtenPages(docsDir: string): string[] {
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split(sep).join('/'))
    .filter((path) => path.endsWith('.md'))
    .filter((path) => ![...GENERATED, ...NOT_PAGES].some((prefix) => path === prefix || path.startsWith(prefix)))
    .sort();
}

/** A fenced block of a page. */
export interface Fence {
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string's first word, lower case (`ts`, `json`, `` for none). */
  readonly language: string;
  readonly body: string;
}

/** The fenced blocks (``` or ~~~, up to 3 spaces of indent, as CommonMark has them) of `markdown`. */
export function fencesOf(markdown: string): Fence[] {
  const fences: Fence[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)/.exec(lines[index]!);
    if (!open) continue;
    const marker = open[1]!;
    const body: string[] = [];
    const start = index;
    for (index++; index < lines.length; index++) {
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      if (close.test(lines[index]!)) break;
      body.push(lines[index]!);
    }
    fences.push({ line: start + 1, language: open[2]!.toLowerCase(), body: body.join('\n') });
  }
  return fences;
}

/** What is wrong with the fences of a page: inline code, or JSON that does not parse. `where` prefixes each. */
export function fenceProblems(markdown: string, where: string): string[] {
  const problems: string[] = [];
  for (const fence of fencesOf(markdown)) {
    const at = `${where}:${fence.line}`;
    if (CODE_LANGUAGES.has(fence.language)) {
      problems.push(
        `${at}: a \`${fence.language}\` block: put the code in a file under docs/snippets/ and include it with <<< @/snippets/…`,
      );
    } else if (fence.language === 'json') {
      try {
        JSON.parse(fence.body);
      } catch (error) {
        problems.push(`${at}: the json block does not parse (${(error as Error).message}); use jsonc for comments`);
      }
    } else if (fence.language === 'jsonc') {
      const parsed = ts.parseJsonText('block.jsonc', fence.body) as ts.JsonSourceFile & {
        parseDiagnostics?: readonly ts.Diagnostic[];
      };
      const [first] = parsed.parseDiagnostics ?? [];
      if (first) {
        problems.push(
          `${at}: the jsonc block does not parse (${ts.flattenDiagnosticMessageText(first.messageText, ' ')})`,
        );
      }
    }
  }
  return problems;
}

/** A snippet a page includes: `<<< @/snippets/a/b.ts#region{1,2} [label]`. */
export interface SnippetInclude {
  readonly line: number;
  /** Relative to docs/ (`snippets/a/b.ts`). */
  readonly file: string;
  readonly region: string | undefined;
}

/** The `<<< @/…` includes of a page (outside fences). */
export function includesOf(markdown: string): SnippetInclude[] {
  const fenced = new Set<number>();
  for (const fence of fencesOf(markdown)) {
    for (let line = fence.line; line <= fence.line + fence.body.split('\n').length + 1; line++) fenced.add(line);
  }
  const includes: SnippetInclude[] = [];
  markdown.split('\n').forEach((text, index) => {
    const match = /^\s*<<<\s+@\/([^\s#{[]+)(?:#([\w-]+))?/.exec(text);
    if (match && !fenced.has(index + 1)) includes.push({ line: index + 1, file: match[1]!, region: match[2] });
  });
  return includes;
}

/** What is wrong with the includes of a page: missing files or regions. */
export function includeProblems(markdown: string, where: string, docsDir: string): string[] {
  const problems: string[] = [];
  for (const include of includesOf(markdown)) {
    const at = `${where}:${include.line}`;
    const path = join(docsDir, include.file);
    if (!existsSync(path)) {
      problems.push(`${at}: includes ${include.file}, which does not exist`);
      continue;
    }
    if (include.region === undefined) continue;
    const source = readFileSync(path, 'utf8');
    const marker = (word: string) => new RegExp(`^\\s*(//|#|<!--)\\s*#${word}\\s+${include.region}\\b`, 'm');
    if (!marker('region').test(source) || !marker('endregion').test(source)) {
      problems.push(
        `${at}: includes region "${include.region}" of ${include.file}, which has no ` +
          `"// #region ${include.region}" … "// #endregion ${include.region}"`,
      );
    }
  }
  return problems;
}

/** Every problem of the hand-written pages under `docsDir`, each naming its file and line. */
export function pageProblems(docsDir: string): string[] {
  return writtenPages(docsDir).flatMap((page) => {
    const markdown = readFileSync(join(docsDir, page), 'utf8');
    const where = relative(join(docsDir, '..'), join(docsDir, page));
    return [...fenceProblems(markdown, where), ...includeProblems(markdown, where, docsDir)];
  });
}
