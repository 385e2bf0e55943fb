/**
 * `@nestjs/throttler` on the MCP endpoint and per tool, with `McpThrottlerGuard` (a `ThrottlerGuard`
 * that understands the `'mcp'` execution context) as the global guard: the endpoint answers 429 once
 * a client has sent its quota of requests, and a tool's own `@Throttle()` limit refuses its calls
 * (as mcp42 refuses every call a guard denies) while the other tools are still served.
 */
import { jest } from '@jest/globals';
import * as nestCommon from '@nestjs/common';
import * as nestCore from '@nestjs/core';
import { HttpMcpClient, replyOf } from '../../utils/http-mcp-client.js';
import { expectRefusal } from '../../utils/refusal.js';
import { TEST_ADAPTER, startApp, type RunningApp } from '../../utils/start-app.js';

// @nestjs/throttler 6 is CommonJS and require()s Nest 12, which is ESM only. Node (20.19+) loads
// that natively, but Jest below Node 24.9 cannot: hand its require() the modules the test imported
// (the same instances, so its ThrottlerException is an HttpException of this Nest), then load the fixture.
jest.mock('@nestjs/common', () => nestCommon);
jest.mock('@nestjs/core', () => nestCore);
const { ENDPOINT_LIMIT, SEARCH_LIMIT, ThrottledModule } = await import('../../fixtures/throttled.module.js');

/** The endpoint's refusal as MCP clients read it (mcp42's filter; the id is unknown, the body unread). */
const TOO_MANY = 'ThrottlerException: Too Many Requests';

describe('@nestjs/throttler with McpThrottlerGuard (e2e)', () => {
  let running: RunningApp;
  let client: HttpMcpClient;

  beforeEach(async () => {
    running = await startApp(ThrottledModule);
    client = new HttpMcpClient(running.mcpUrl);
  });
  afterEach(() => running.close());

  it(`answers a client's request past ${ENDPOINT_LIMIT} a minute with 429 and Retry-After`, async () => {
    await client.initialize();
    for (let sent = 1; sent < ENDPOINT_LIMIT; sent++) {
      const reply = await client.post({ jsonrpc: '2.0', id: sent, method: 'ping' });
      expect(reply.status).toBe(200);
      if (TEST_ADAPTER === 'express') {
        expect(reply.headers['x-ratelimit-limit']).toBe(String(ENDPOINT_LIMIT));
        expect(reply.headers['x-ratelimit-remaining']).toBe(String(ENDPOINT_LIMIT - sent - 1));
      } else {
        // Observed: on Fastify the headers the guard sets on a request it lets through do not reach
        // the client (mcp42 writes the response itself); those of a refusal, sent by Nest, do.
        expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
      }
    }

    const refused = await client.post({ jsonrpc: '2.0', id: 'late', method: 'ping' });
    // The guard's exception as a JSON-RPC error, its status and Retry-After kept.
    expectRefusal(refused, 429, { message: TOO_MANY, headers: { 'retry-after': '60' } });

    const call = await client.call('echo', {}, 'after');
    expectRefusal(call, 429, { message: TOO_MANY });
  });

  it(`refuses the call of search past ${SEARCH_LIMIT} a minute and still serves echo`, async () => {
    await client.initialize();
    // Listings ask each tool's guards (phase 'list'), which McpThrottlerGuard does not count.
    for (const id of ['list-1', 'list-2']) {
      const listed = replyOf(await client.post({ jsonrpc: '2.0', id, method: 'tools/list' }));
      expect((listed?.result?.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual(['echo', 'search']);
    }
    for (let call = 1; call <= SEARCH_LIMIT; call++) {
      const reply = await client.call('search', {}, call);
      expect(reply.status).toBe(200);
      expect(replyOf(reply)?.result).toEqual({ content: [{ type: 'text', text: 'found' }] });
    }

    // The guard's ThrottlerException (an HttpException, 429) is a denial like any other: mcp42
    // answers the call as one to an unknown tool, in a 200 (the HTTP request itself was allowed).
    const refused = await client.call('search', {}, 'over');
    expect(refused.status).toBe(200);
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(replyOf(refused)).toEqual({
      jsonrpc: '2.0',
      id: 'over',
      result: { content: [{ type: 'text', text: 'Unknown tool: search' }], isError: true },
    });

    const other = await client.call('echo', {}, 'other');
    expect(other.status).toBe(200);
    expect(replyOf(other)?.result).toEqual({ content: [{ type: 'text', text: 'echo' }] });
  });
});
