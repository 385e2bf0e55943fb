/**
 * CORS as a browser enforces it, on both platforms: headless Chromium loads a page from another
 * loopback origin whose script, the official SDK client bundled for the browser, connects, lists and
 * calls a tool and ends its session (so it read `Mcp-Session-Id`, and its GET and DELETE passed
 * their preflights); a bearer token passes the preflight; a refusal stays readable by the page; the
 * same page from an origin outside `allowedOrigins` is stopped at the preflight, and no tool runs.
 */
import { Injectable, type CanActivate } from '@nestjs/common';
import { IsString } from 'class-validator';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { McpModule, McpTool } from '../../../src/index.js';
import type { SdkPageGlobal, SdkPageOutcome } from '../../browser/sdk-client.entry.js';
import { sdkPageFiles } from '../../browser/sdk-page.js';
import { launchChromium } from '../../utils/chromium.js';
import { startPageServer, type PageServer } from '../../utils/page-server.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';

const TOKEN = 'page-token';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class GreetArgs {
  @IsString()
  name!: string;
}

@Injectable()
class GreetTools {
  /** Calls that reached the tool: none may come from a refused page. */
  calls = 0;

  @McpTool({ description: 'Greets someone', input: GreetArgs })
  greet(args: GreetArgs): string {
    this.calls += 1;
    return `Hello, ${args.name}!`;
  }
}

/** A preflight never carries the token: it has to be answered before this guard. */
const bearerOnly: CanActivate = {
  canActivate: (context) =>
    context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization ===
    `Bearer ${TOKEN}`,
};

/** A page open in its own browser context, with the errors its console reported. */
interface OpenPage {
  readonly page: Page;
  readonly consoleErrors: string[];
}

describe('CORS in a browser: the official SDK client in a page of another origin (e2e)', () => {
  let browser: Browser;
  let allowed: PageServer;
  let foreign: PageServer;
  let running: RunningApp;
  let tools: GreetTools;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // First: without Chromium, its message is the one failure to read.
    browser = await launchChromium();
    const files = await sdkPageFiles();
    [allowed, foreign] = await Promise.all([startPageServer(files), startPageServer(files)]);
    // Only the first page's origin: the default would allow every loopback port, the foreign page's too.
    running = await startApp({
      imports: [
        McpModule.forRoot({
          name: 'browser-cors',
          version: '1.0.0',
          guards: [bearerOnly],
          http: { cors: true, allowedOrigins: [allowed.origin] },
        }),
      ],
      providers: [GreetTools],
    });
    tools = running.app.get(GreetTools);
  }, 60_000);

  beforeEach(() => {
    tools.calls = 0;
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    await Promise.all([allowed?.close(), foreign?.close()]);
  });

  async function openPage(server: PageServer): Promise<OpenPage> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    await page.goto(`${server.origin}/`);
    return { page, consoleErrors };
  }

  /** The page's client against the endpoint: greets Ada, with the bearer token unless `token` is undefined. */
  const runIn = (page: Page, mcpUrl: string, token: string | undefined): Promise<SdkPageOutcome> =>
    page.evaluate(
      ([url, bearer]) => (globalThis as unknown as SdkPageGlobal).mcpRun(url, 'greet', { name: 'Ada' }, bearer),
      [mcpUrl, token] as const,
    );

  it('lets a page of an allowed origin connect, list and call a tool, read its session id and end it', async () => {
    const { page, consoleErrors } = await openPage(allowed);
    const outcome = await runIn(page, running.mcpUrl, TOKEN);
    expect(outcome.tools).toEqual(['greet']);
    expect(outcome.text).toBe('Hello, Ada!');
    expect(outcome.sessionId).toMatch(UUID);
    expect(tools.calls).toBe(1);
    expect(consoleErrors).toEqual([]);
  });

  it("lets that page read a guard's refusal (CORS headers on the 403)", async () => {
    const { page } = await openPage(allowed);
    await expect(runIn(page, running.mcpUrl, undefined)).rejects.toThrow(
      'Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Forbidden resource"}}',
    );
    expect(tools.calls).toBe(0);
  });

  it('stops a page of an origin outside allowedOrigins at the preflight: no tool runs', async () => {
    const { page, consoleErrors } = await openPage(foreign);
    await expect(runIn(page, running.mcpUrl, TOKEN)).rejects.toThrow('TypeError: Failed to fetch');
    expect(tools.calls).toBe(0);
    expect(consoleErrors).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`from origin '${foreign.origin}' has been blocked by CORS policy`),
      ]),
    );
  });
});
