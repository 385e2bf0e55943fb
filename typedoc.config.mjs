// The API reference of the site (docs/api/, generated on every `npm run docs`): markdown that
// VitePress renders with the guides, so the site is one build with one search index.
import { readFileSync } from 'node:fs';

/**
 * The package's entry points, from its `exports` (the one list of what is public): `.` is
 * src/index.ts and `./<name>` is src/<name>/index.ts, so a new subpath is documented without an edit
 * here.
 */
function entryPoints() {
  const { exports } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
  return Object.keys(exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? 'src/index.ts' : `src/${subpath.slice(2)}/index.ts`));
}

/** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions & import('typedoc-vitepress-theme').PluginOptions>} */
export default {
  entryPoints: entryPoints(),
  out: 'docs/api',
  docsRoot: 'docs',
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme', './scripts/typedoc-module-names.mjs'],
  tsconfig: 'tsconfig.build.json',
  // `npm run typecheck` and the build check the types; checking them again here tripled the time.
  skipErrorChecking: true,
  excludePrivate: true,
  excludeInternal: true,
  // The README is the front door of the repository; the site has its own home page and guides.
  readme: 'none',
  // The title of the reference's index page and the root of its breadcrumbs (the modules are `mcp42…`).
  name: 'API reference',
  disableSources: true,
  // Warnings are printed (a broken {@link} shows up in the build's output) without failing the site.
  treatWarningsAsErrors: false,
  categorizeByGroup: false,
  defaultCategory: 'Protocol',
  categoryOrder: [
    'Module',
    'Decorators',
    'Context',
    'Registries',
    'Content helpers',
    'Errors',
    'Options',
    'Guards',
    'Sessions',
    'Scaling',
    'Observability',
    'Protocol',
  ],
  // A page for each class and interface (the API's big members); functions, constants and type
  // aliases are sections of their module's page. A page per member made 170 pages and doubled the
  // site's build and crawl for pages of a few lines.
  membersWithOwnFile: ['Class', 'Interface'],
  sidebar: { autoConfiguration: true, format: 'vitepress', pretty: true, collapsed: true },
};
