/**
 * The documentation site as `npm run docs` builds it into site/ (npm test builds it before jest),
 * served from this machine and crawled with headless Chromium: every page renders without an error,
 * asks nothing of another host (the site works offline: no CDN font or script), every internal link
 * reaches a page and every `#anchor` an element of it, and the local search finds what the guides say.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from '../package/packed-package.js';
import { launchChromium } from '../utils/chromium.js';
import { directoryFiles, startPageServer, type PageServer } from '../utils/page-server.js';

const SITE = join(ROOT, 'site');
/** Bounds: a site grown past them needs a look at how it is crawled, not a longer wait. */
const MAX_PAGES = 600;
const CRAWL_MS = 240_000;
const PAGE_MS = 15_000;
const TABS = 2;

/** What one page showed while it was loaded. */
interface PageVisit {
  /** The ids of its elements: what `#anchor`s may point at. */
  readonly ids: ReadonlySet<string>;
  /** Its links, resolved (`a.href`). */
  readonly links: readonly string[];
}

/** What the crawl reads of a page's window (the tests compile without the DOM's types). */
interface VitePressWindow {
  readonly document: { querySelector(selector: string): { readonly __vue_app__?: unknown } | null };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe('the documentation site (site/), served and crawled with headless Chromium', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let served: ReadonlySet<string>;
  /** Every page by its path (`/guide/tools.html`). */
  const visits = new Map<string, PageVisit>();
  /** Console errors, page errors, failed or refused requests, requests off this machine: `path: what`. */
  const problems: string[] = [];

  /** Records on `page` what makes a page broken, naming the page being visited. */
  function watch(page: Page, where: () => string): void {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${where()}: console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${where()}: page error: ${error.message}`));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (['data:', 'blob:'].includes(url.protocol)) return;
      if (!LOOPBACK.has(url.hostname)) problems.push(`${where()}: request off this machine: ${request.url()}`);
    });
    page.on('requestfailed', (request) => {
      const error = request.failure()?.errorText;
      // Prefetches of linked pages cut off by the next navigation; a missing file still answers 404.
      if (error === 'net::ERR_ABORTED') return;
      problems.push(`${where()}: request failed: ${request.url()} (${error})`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${where()}: ${response.status()} for ${response.url()}`);
    });
  }

  /** Loads `path` and waits until VitePress has mounted the page (hydration included). */
  async function open(page: Page, path: string): Promise<void> {
    await page.goto(`${server!.origin}${path}`, { waitUntil: 'load', timeout: PAGE_MS });
    await page.waitForFunction(
      () => (globalThis as unknown as VitePressWindow).document.querySelector('#app')?.__vue_app__ !== undefined,
      null,
      { timeout: PAGE_MS },
    );
  }

  beforeAll(async () => {
    if (!existsSync(join(SITE, 'index.html'))) {
      throw new Error('site/ has no index.html: build the site first with `npm run docs` (npm test does)');
    }
    const files = await directoryFiles(SITE);
    served = new Set(Object.keys(files));
    server = await startPageServer(files);
    browser = await launchChromium();
    const pages = Object.keys(files)
      .filter((path) => path.endsWith('.html'))
      .sort();
    if (pages.length > MAX_PAGES)
      throw new Error(`site/ has ${pages.length} pages, more than the crawl's ${MAX_PAGES}`);
    const deadline = Date.now() + CRAWL_MS;
    const queue = [...pages];
    // A few tabs at once: the pages are independent, and one tab at a time leaves the cores idle.
    const crawler = async () => {
      const page = await browser!.newPage();
      let current = '';
      watch(page, () => current);
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        if (Date.now() > deadline) throw new Error(`the crawl took over ${CRAWL_MS} ms; ${visits.size} pages visited`);
        current = path;
        await open(page, path);
        const ids = await page.locator('[id]').evaluateAll((elements) => elements.map((element) => element.id));
        const links = await page.locator('a[href]').evaluateAll((anchors) => anchors.map((anchor) => anchor.href));
        visits.set(path, { ids: new Set(ids), links });
      }
      await page.close();
    };
    await Promise.all(Array.from({ length: TABS }, crawler));
  }, CRAWL_MS + 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has its pages: the guides, the references and the generated API reference', () => {
    expect([...visits.keys()]).toEqual(
      expect.arrayContaining([
        '/index.html',
        '/guide/getting-started.html',
        '/reference/options.html',
        '/reference/changelog.html',
        '/api/index.html',
      ]),
    );
  });

  it('renders every page without a console error, a failed request or a request to another host', () => {
    expect(problems).toEqual([]);
  });

  it('links every internal link to a page it serves, and every #anchor to an element of that page', () => {
    const broken: string[] = [];
    for (const [path, visit] of visits) {
      for (const href of visit.links) {
        const url = new URL(href);
        if (url.origin !== server!.origin) continue;
        const target = decodeURIComponent(url.pathname);
        if (!served.has(target)) {
          broken.push(`${path}: ${href} (no such page)`);
          continue;
        }
        if (url.hash === '' || url.hash === '#') continue;
        const page = visits.get(target.endsWith('/') ? `${target}index.html` : target);
        const id = decodeURIComponent(url.hash.slice(1));
        if (!page?.ids.has(id)) broken.push(`${path}: ${href} (no element with id "${id}" there)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds "elicitation" with the local search', async () => {
    const page = await browser!.newPage();
    const before = problems.length;
    watch(page, () => 'search');
    try {
      await open(page, '/index.html');
      await page.locator('#local-search button').click({ timeout: PAGE_MS });
      const input = page.locator('#localsearch-input');
      await input.fill('elicitation', { timeout: PAGE_MS });
      const results = page.locator('.VPLocalSearchBox .results li');
      await results.first().waitFor({ state: 'visible', timeout: PAGE_MS });
      expect(await results.count()).toBeGreaterThan(0);
      await expect(results.first().textContent()).resolves.toMatch(/elicitation/i);
    } finally {
      await page.close();
    }
    expect(problems.slice(before)).toEqual([]);
  }, 60_000);
});
