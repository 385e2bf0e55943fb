// VitePress 1.6: made for library docs, static and offline (its theme serves its own font, its search
// index is local), and it runs on Node 20, which this project supports (Starlight's Astro needs 22).
import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, type DefaultTheme } from 'vitepress';

/** The API reference's sidebar, written by typedoc-vitepress-theme beside the pages it generates. */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = new URL('../api/typedoc-sidebar.json', import.meta.url);
  // `npm run docs` and `docs:dev` generate it first; `vitepress` run alone would build a site without it.
  if (!existsSync(file)) throw new Error('docs/api/ is missing: run `npm run docs` (or `npm run docs:dev`)');
  return JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[];
}

const reference: DefaultTheme.SidebarItem = {
  text: 'Reference',
  items: [
    { text: 'Options', link: '/reference/options' },
    { text: 'API', link: '/api/' },
    { text: 'Changelog', link: '/reference/changelog' },
  ],
};

const guides: DefaultTheme.SidebarItem[] = [
  {
    text: 'Getting started',
    items: [
      { text: 'Nest 12, ES modules, Vitest', link: '/guide/getting-started' },
      { text: 'Nest 11, CommonJS, Jest', link: '/guide/getting-started-nest11' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'Tools', link: '/guide/tools' },
      { text: 'Exposing existing routes', link: '/guide/routes' },
      { text: 'Resources, templates, prompts, completion', link: '/guide/resources-prompts' },
      { text: 'The context', link: '/guide/context' },
      { text: 'Guards and authentication', link: '/guide/guards-auth' },
      { text: 'Testing', link: '/guide/testing' },
      { text: 'Two protocol eras', link: '/guide/protocol-eras' },
      { text: 'Several servers in one app', link: '/guide/servers' },
      { text: 'stdio: a local server', link: '/guide/stdio' },
      { text: 'Long-running tools (tasks)', link: '/guide/tasks' },
    ],
  },
  {
    text: 'In production',
    items: [
      { text: 'Deployment', link: '/guide/deployment' },
      { text: 'Security', link: '/guide/security' },
      { text: 'Performance', link: '/guide/performance' },
      { text: 'Observability', link: '/guide/observability' },
      { text: 'Connecting clients', link: '/guide/clients' },
      { text: 'Troubleshooting', link: '/guide/troubleshooting' },
      { text: 'Migrating from 0.x', link: '/guide/migrating' },
    ],
  },
  reference,
];

export default defineConfig({
  title: 'mcp42',
  description: 'Model Context Protocol (Streamable HTTP) servers for NestJS',
  lang: 'en',
  // The site lands at the repository's root, git-ignored, beside dist/. It is published at
  // https://mcp42.github.io/mcp42/ (DOCS_BASE=/mcp42/); served locally and crawled by the tests at /.
  outDir: '../site',
  base: process.env.DOCS_BASE ?? '/',
  // Snippets are compiled sources the pages include, not pages.
  srcExclude: ['snippets/**'],
  // A git call per page for a date nobody needs would slow every build.
  lastUpdated: false,
  // Browsers ask for /favicon.ico otherwise, and get a 404 on every first visit.
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: `${process.env.DOCS_BASE ?? '/'}favicon.svg` }]],
  // The local search index of every page is one chunk, larger than Vite's warning threshold by design.
  vite: { build: { chunkSizeWarningLimit: 2048 } },
  markdown: {
    codeTransformers: [
      {
        // A page including a whole snippet (`<<< @/snippets/x.ts`) would show the markers of the
        // regions other pages include; readers have no use for them.
        name: 'hide-region-markers',
        preprocess: (code) => code.replace(/^[ \t]*(?:\/\/|#|<!--)[ \t]*#(?:end)?region\b.*(?:\r?\n|$)/gm, ''),
      },
    ],
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started', activeMatch: '^/guide/' },
      { text: 'Options', link: '/reference/options' },
      { text: 'API', link: '/api/', activeMatch: '^/api/' },
      { text: 'Changelog', link: '/reference/changelog' },
    ],
    sidebar: {
      '/guide/': guides,
      '/reference/': guides,
      '/api/': [reference, ...apiSidebar()],
    },
    outline: [2, 3],
    search: { provider: 'local' },
    socialLinks: [{ icon: 'github', link: 'https://github.com/mcp42/mcp42' }],
  },
});
