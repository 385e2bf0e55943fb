import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpExecutionContext, McpModule, McpTool, McpToolRegistry } from '../../../src/index.js';
import { openSession } from '../../utils/open-session.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';

/**
 * List pages are encoded once per place and per visibility class, then written as kept bytes: what
 * each caller gets must still be exactly its own page, byte for byte what JSON.stringify gives, with
 * the right Content-Length, and a change to the list must show on the next listing.
 */

/** Lets `admin_*` tools be seen by admins only and `visitor_*` tools by visitors only (`x-role`). */
@Injectable()
class RoleGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const mcp = McpExecutionContext.of(context);
    const role = mcp.getRequest<IncomingMessage>().headers['x-role'];
    if (mcp.name.startsWith('admin_')) return role === 'admin';
    if (mcp.name.startsWith('visitor_')) return role === 'visitor';
    return true;
  }
}

@Injectable()
class Tools {
  @McpTool({ name: 'a', description: 'ünïcode ☃ 😀 \u2028' })
  a(): string {
    return 'a';
  }

  @McpTool({ name: 'admin_b', description: 'admin' })
  @UseGuards(RoleGuard)
  b(): string {
    return 'b';
  }

  @McpTool({ name: 'visitor_c', description: 'visitor' })
  @UseGuards(RoleGuard)
  c(): string {
    return 'c';
  }

  @McpTool({ name: 'd', description: 'd'.repeat(5000) })
  d(): string {
    return 'd';
  }

  @McpTool({ name: 'admin_e', description: 'admin' })
  @UseGuards(RoleGuard)
  e(): string {
    return 'e';
  }

  @McpTool({ name: 'f', description: 'f' })
  f(): string {
    return 'f';
  }
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'pages', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface ToolsPage {
  readonly result: { readonly tools: readonly { readonly name: string }[]; readonly nextCursor?: string };
}

describe('list pages kept encoded', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({
      imports: [McpModule.forRoot({ name: 'pages', version: '1', limits: { pageSize: 2 } })],
      providers: [Tools, RoleGuard],
    });
  });

  afterAll(() => app.close());

  /** POSTs a body; a JSON answer must be JSON.stringify's text, its Content-Length its byte length. */
  async function post(headers: Record<string, string>, body: unknown): Promise<{ response: Response; json: unknown }> {
    const response = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...headers },
      body: JSON.stringify(body),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const text = bytes.toString('utf8');
    expect(text).toBe(JSON.stringify(JSON.parse(text)));
    return { response, json: JSON.parse(text) };
  }

  /** A session of `role`: the headers of its later requests. */
  const session = async (role: string, protocolVersion = '2025-06-18'): Promise<Record<string, string>> =>
    (await openSession(app.mcpUrl, { headers: { 'x-role': role }, protocolVersion })).headers;

  /** Every page of tools/list, walked by nextCursor: the tool names of each page. */
  async function pages(headers: Record<string, string>): Promise<string[][]> {
    const names: string[][] = [];
    let cursor: string | undefined;
    let id = 1;
    do {
      const { json } = await post(headers, {
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/list',
        params: cursor === undefined ? {} : { cursor },
      });
      const { result } = json as ToolsPage;
      names.push(result.tools.map((tool) => tool.name));
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    return names;
  }

  it('gives each caller its own pages, however the classes interleave, and shows every change to the list', async () => {
    const admin = await session('admin');
    const visitor = await session('visitor');
    const nobody = await session('nobody');
    for (let round = 0; round < 2; round++) {
      expect(await pages(admin)).toEqual([['a', 'admin_b'], ['d', 'admin_e'], ['f']]);
      expect(await pages(visitor)).toEqual([
        ['a', 'visitor_c'],
        ['d', 'f'],
      ]);
      expect(await pages(nobody)).toEqual([['a', 'd'], ['f']]);
    }
    const registry = app.app.get(McpToolRegistry);
    registry.disable('a');
    expect((await pages(admin)).flat()).toEqual(['admin_b', 'd', 'admin_e', 'f']);
    registry.add({ name: 'g', description: 'new ☃' }, () => 'g');
    expect((await pages(visitor)).flat()).toEqual(['visitor_c', 'd', 'f', 'g']);
    registry.enable('a');
    registry.remove('d');
    expect((await pages(nobody)).flat()).toEqual(['a', 'f', 'g']);
    expect((await pages(admin)).flat()).toEqual(['a', 'admin_b', 'admin_e', 'f', 'g']);
  });

  it('answers kept pages in a 2025-03-26 batch and to a stateless 2026-07-28 request alike', async () => {
    const headers = await session('admin', '2025-03-26');
    const { json: batch } = await post(headers, [
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    ]);
    expect((batch as ToolsPage[]).map((response) => response.result.tools.map((tool) => tool.name))).toEqual([
      ['a', 'admin_b'],
      ['a', 'admin_b'],
    ]);
    const { response, json } = await post(
      { 'x-role': 'visitor', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: MODERN_META } },
    );
    expect(response.status).toBe(200);
    expect(json).toMatchObject({
      id: 9,
      result: { tools: [{ name: 'a' }, { name: 'visitor_c' }], resultType: 'complete', nextCursor: expect.any(String) },
    });
  });
});
