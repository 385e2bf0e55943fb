/**
 * CORS for browser clients (`cors` option, tied to `allowedOrigins`), on both platforms: preflights of
 * allowed origins answered 204 before any guard, with the methods and every MCP request header (and
 * only those); answers readable by the page (`Mcp-Session-Id`, `WWW-Authenticate` exposed); a
 * foreign origin refused; no CORS at all unless asked for.
 */
import type { CanActivate } from '@nestjs/common';
import { McpModule } from '../../../src/index.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';

const PAGE = 'http://localhost:5173';

/** Lets nothing through that carries no bearer token: a preflight never carries one. */
const bearerOnly: CanActivate = {
  canActivate: (context) =>
    /^Bearer /.test(
      context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers.authorization ?? '',
    ),
};

const preflight = (
  url: string,
  origin: string,
  headers = 'content-type, mcp-session-id',
): ReturnType<typeof httpExchange> =>
  httpExchange(url, 'OPTIONS', {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': headers,
  });

describe('CORS on (e2e)', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(
      McpModule.forRoot({ name: 'cors', version: '1.0.0', guards: [bearerOnly], http: { cors: true } }),
    );
  });

  afterAll(() => running?.close());

  it('answers the preflight of an allowed origin with 204, before the guards, naming only MCP headers', async () => {
    const answer = await preflight(running.mcpUrl, PAGE, 'Content-Type, Mcp-Session-Id, Mcp-Param-Region, X-Evil');
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(PAGE);
    expect(answer.headers.vary).toMatch(/Origin/);
    expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, DELETE');
    const allowed = String(answer.headers['access-control-allow-headers']).split(', ');
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'mcp-session-id',
        'mcp-protocol-version',
        'mcp-method',
        'mcp-name',
        'last-event-id',
        'mcp-param-region',
      ]),
    );
    expect(allowed).not.toContain('x-evil');
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    expect(answer.headers['access-control-max-age']).toBe('600');
  });

  it('refuses the preflight of an origin that is not allowed', async () => {
    const answer = await preflight(running.mcpUrl, 'https://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the page read the answer and the session id, and the challenge of a refusal', async () => {
    const ok = await httpExchange(
      running.mcpUrl,
      'POST',
      { ...MCP_POST_HEADERS, origin: PAGE, authorization: 'Bearer anything' },
      JSON.stringify(initializeRequest()),
    );
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(PAGE);
    expect(ok.headers['access-control-expose-headers']).toBe('Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate');
    expect(ok.headers['mcp-session-id']).toBeDefined();
    const refused = await httpExchange(
      running.mcpUrl,
      'POST',
      { ...MCP_POST_HEADERS, origin: PAGE },
      JSON.stringify(initializeRequest()),
    );
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBe(PAGE);
  });

  it('sends no CORS headers to a client that is not a page (no Origin)', async () => {
    const answer = await httpExchange(
      running.mcpUrl,
      'POST',
      { ...MCP_POST_HEADERS, authorization: 'Bearer anything' },
      JSON.stringify(initializeRequest()),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS off (the default) (e2e)', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(McpModule.forRoot({ name: 'no-cors', version: '1.0.0' }));
  });

  afterAll(() => running?.close());

  it('answers a preflight with 405 and no CORS headers', async () => {
    const answer = await preflight(running.mcpUrl, PAGE);
    expect(answer.status).toBe(405);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});
