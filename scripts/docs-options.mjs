// The options reference of the site (docs/reference/options.md, generated and git-ignored), written
// from the TSDoc of the options interfaces: the text a user reads in an editor's hover is the text of
// the site, with one source. Nothing here names an option: the interfaces are walked with the type
// checker, so a regrouping of the options changes the page without an edit here.
//
//   node scripts/docs-options.mjs [--source file.ts]... [--root Interface]... [--out page.md]
//
// Each root interface gets a section listing its properties (type, default, description). A property
// whose type is an object interface (or type literal) declared in one of the sources is a group: it
// gets a section of its own listing its fields, and so on down. An interface with methods is a port
// (a store, a state adapter), not a group: it stays a type name.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const DEFAULTS = {
  sources: ['src/interfaces/mcp-module-options.interface.ts'],
  roots: ['McpModuleOptions', 'McpModuleExtras'],
  out: 'docs/reference/options.md',
};

/**
 * The markdown of the options reference.
 * @param {{ sources: string[], roots: string[], title?: string }} config
 * @returns {{ markdown: string, options: number, groups: number }}
 */
export function optionsPage({ sources, roots, title = 'Options reference' }) {
  const files = sources.map((source) => resolve(source));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter({ removeComments: true });
  const sourceFiles = new Set(files.map((file) => program.getSourceFile(file)));

  const declarations = new Map();
  for (const sourceFile of sourceFiles) {
    for (const statement of sourceFile.statements) {
      if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
        declarations.set(statement.name.text, statement);
      }
    }
  }

  /** The object types of the sources a type is made of (through unions and arrays), once each. */
  function groupsOf(type) {
    const found = [];
    const visit = (part) => {
      part = checker.getNonNullableType(part);
      if (part.isUnion()) return part.types.forEach(visit);
      if (checker.isArrayType(part)) return checker.getTypeArguments(part).forEach(visit);
      const declaration = part.getSymbol()?.declarations?.[0];
      if (!declaration || !sourceFiles.has(declaration.getSourceFile())) return;
      if (!ts.isInterfaceDeclaration(declaration) && !ts.isTypeLiteralNode(declaration)) return;
      const members = checker.getPropertiesOfType(part);
      const isPort = members.some((member) => !member.declarations?.every(ts.isPropertySignature));
      if (members.length === 0 || isPort || found.some((group) => group.declaration === declaration)) return;
      // An interface, a type alias of a literal, or an inline literal (named by its path only).
      const named = ts.isInterfaceDeclaration(declaration) ? part.getSymbol() : part.aliasSymbol;
      found.push({ declaration, type: part, name: named?.name, symbol: named });
    };
    visit(type);
    return found;
  }

  /** A property as the page shows it. */
  function describe(symbol) {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    const type = checker.getTypeOfSymbol(symbol);
    const typeNode = declaration && ts.isPropertySignature(declaration) ? declaration.type : undefined;
    const tags = symbol.getJsDocTags(checker);
    const tag = (name) => {
      const found = tags.filter((candidate) => candidate.name === name);
      return found.length === 0 ? undefined : found.map((entry) => markdownOf(entry.text ?? [])).join('\n\n');
    };
    return {
      name: symbol.name,
      // As written (`readonly string[]`, an alias's name), without the comments of an inline literal.
      type: oneLine(
        typeNode
          ? printer.printNode(ts.EmitHint.Unspecified, typeNode, typeNode.getSourceFile())
          : checker.typeToString(type),
      ),
      optional: (symbol.flags & ts.SymbolFlags.Optional) !== 0,
      defaultValue: tag('default'),
      deprecated: tag('deprecated'),
      description: [markdownOf(symbol.getDocumentationComment(checker)), tag('remarks')].filter(Boolean).join('\n\n'),
      groups: groupsOf(type),
    };
  }

  // Every group reachable from the roots, in the order a reader meets them, with the paths that lead
  // to it: a group met at one path is headed by that path, one shared by several by its name.
  const rootSections = roots.map((name) => {
    const declaration = declarations.get(name);
    if (!declaration || !ts.isInterfaceDeclaration(declaration)) {
      throw new Error(`docs-options: no interface ${name} in ${sources.join(', ')}`);
    }
    const symbol = checker.getSymbolAtLocation(declaration.name);
    const properties = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).map(describe);
    return { name, doc: markdownOf(symbol.getDocumentationComment(checker)), properties };
  });
  const groups = new Map();
  const queue = rootSections.flatMap((section) => section.properties.map((property) => [property, property.name]));
  while (queue.length > 0) {
    const [property, path] = queue.shift();
    for (const group of property.groups) {
      const known = groups.get(group.declaration);
      if (known) {
        known.paths.push(path);
        continue;
      }
      const fields = checker.getPropertiesOfType(group.type).map(describe);
      groups.set(group.declaration, { ...group, paths: [path], fields, doc: groupDoc(group) });
      queue.push(...fields.map((field) => [field, `${path}.${field.name}`]));
    }
  }

  function groupDoc(group) {
    return group.symbol ? markdownOf(group.symbol.getDocumentationComment(checker)) : '';
  }

  const ids = new Set();
  /** A unique heading id: the anchors a page links to, stable while the names stay. */
  const idFor = (wanted) => {
    const base = wanted.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    return id;
  };
  const groupIds = new Map();
  for (const group of groups.values()) {
    groupIds.set(group.declaration, idFor(group.paths.length === 1 ? `${group.paths[0]}-options` : group.name));
  }
  for (const section of rootSections) section.id = idFor(section.name);

  const lines = ['---', 'outline: [2, 3]', '---', '', `# ${title}`, ''];
  lines.push(
    `<!-- Generated by scripts/docs-options.mjs from ${sources
      .map((source) => relative(process.cwd(), resolve(source)))
      .join(', ')}: edit the TSDoc there, not this page. -->`,
    '',
  );
  const propertyBlock = (property, heading, id) => {
    lines.push(`### ${heading} {#${id}}`, '');
    const facts = [`**Type** \`${property.type}\``];
    if (!property.optional) facts.push('**Required**');
    if (property.defaultValue !== undefined) facts.push(`**Default** ${defaultMarkdown(property.defaultValue)}`);
    lines.push(facts.join(' · '), '');
    if (property.deprecated !== undefined) lines.push(`**Deprecated.** ${property.deprecated}`, '');
    if (property.description) lines.push(property.description, '');
    if (property.groups.length > 0) {
      const links = property.groups.map((group) => {
        const label = group.name ?? `\`${groups.get(group.declaration).paths[0]}\``;
        return `[${label}](#${groupIds.get(group.declaration)})`;
      });
      lines.push(`Its fields: ${links.join(', ')}.`, '');
    }
  };
  for (const section of rootSections) {
    lines.push(`## ${section.name} {#${section.id}}`, '');
    if (section.doc) lines.push(section.doc, '');
    for (const property of section.properties) propertyBlock(property, `\`${property.name}\``, idFor(property.name));
  }
  for (const group of groups.values()) {
    const single = group.paths.length === 1;
    lines.push(`## ${single ? `\`${group.paths[0]}\`` : group.name} {#${groupIds.get(group.declaration)}}`, '');
    if (single && group.name) lines.push(`Type \`${group.name}\`.`, '');
    if (!single) lines.push(`Used by ${group.paths.map((path) => `\`${path}\``).join(', ')}.`, '');
    if (group.doc) lines.push(group.doc, '');
    const prefix = single ? `${group.paths[0]}.` : '';
    const idPrefix = single ? group.paths[0] : group.name;
    for (const field of group.fields) {
      propertyBlock(field, `\`${prefix}${field.name}\``, idFor(`${idPrefix}-${field.name}`));
    }
  }
  const options = rootSections.reduce((count, section) => count + section.properties.length, 0);
  return { markdown: `${lines.join('\n').trimEnd()}\n`, options, groups: groups.size };
}

/**
 * TSDoc's display parts as markdown: `{@link X}` becomes `X` in code, `{@link X | label}` its label.
 * (A link the checker cannot resolve comes as text only: `X | label`.)
 */
function markdownOf(parts) {
  let text = '';
  let link;
  for (const part of parts) {
    if (part.kind === 'link' && part.text.startsWith('{@')) link = { name: '', rest: '' };
    else if (part.kind === 'link' && link) {
      let name = link.name.trim();
      let label = link.rest.replace(/^\s*\|/, '').trim();
      if (!name) {
        const bar = link.rest.indexOf('|');
        name = (bar < 0 ? link.rest : link.rest.slice(0, bar)).trim();
        label = bar < 0 ? '' : link.rest.slice(bar + 1).trim();
      }
      text += label || `\`${name}\``;
      link = undefined;
    } else if (link && part.kind === 'linkName') link.name += part.text;
    else if (link) link.rest += part.text;
    else text += part.text;
  }
  return escapeProse(text.trim());
}

/**
 * Outside code spans, what VitePress (markdown compiled as a Vue template) would read as markup:
 * `<` opens an element and `{{` an interpolation.
 */
function escapeProse(text) {
  return text
    .split(/(`[^`]*`)/)
    .map((piece, index) => (index % 2 === 1 ? piece : piece.replaceAll('<', '&lt;').replaceAll('{{', '&#123;&#123;')))
    .join('');
}

/** A default that starts with a literal (`4194304 (4 MiB)`, `'hide'`, `[]`) shows the literal as code. */
function defaultMarkdown(text) {
  text = oneLine(text);
  if (text.startsWith('`')) return text;
  const match = /^((?:-?[\d_.]+|'[^']*'|"[^"]*"|\[.*?\]|\{.*?\}|true|false|null|undefined|Infinity))(\s.*)?$/s.exec(
    text,
  );
  return match ? `\`${match[1]}\`${match[2] ?? ''}` : text;
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();

/** npm run docs: writes the page where the site reads it. */
function main() {
  const { values } = parseArgs({
    options: {
      source: { type: 'string', multiple: true },
      root: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
  });
  const sources = values.source ?? DEFAULTS.sources;
  const roots = values.root ?? DEFAULTS.roots;
  const out = values.out ?? DEFAULTS.out;
  let page;
  try {
    page = optionsPage({ sources, roots });
  } catch (error) {
    // One line naming what is missing, not a stack trace of this script.
    console.error(error.message);
    process.exit(1);
  }
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, page.markdown);
  console.log(`docs-options: ${out}, ${page.options} options and ${page.groups} groups`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) main();
