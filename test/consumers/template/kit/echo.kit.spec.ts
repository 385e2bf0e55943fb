// The testing kit as a Nest team uses it: a tool behind the endpoint's guard, tested through
// `mcp42/testing` in both eras on an app that never listens. The app's own runner runs it (Jest in
// the CommonJS apps, Vitest in the ES module apps, each set up as `nest new` sets it up), with its
// globals: nothing in the runner's configuration is there for the kit.
import {
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpModule } from 'mcp42';
import { createMcpTestClient, McpHttpError, type McpTestEra } from 'mcp42/testing';
import type { IncomingMessage, Server } from 'node:http';
import { APP_NAME } from './app-name.js';
import { EchoTools } from './echo.tools.js';
import { createTestApp } from './platform.js';

const TOKEN = 'consumer-token';
const CHALLENGE = 'Bearer realm="consumer"';

/** The endpoint's guard: `Authorization: Bearer consumer-token`, else 401 with a challenge. */
@Injectable()
class TokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    if (http.getRequest<IncomingMessage>().headers.authorization === `Bearer ${TOKEN}`) return true;
    http.getResponse<{ header(name: string, value: string): unknown }>().header('WWW-Authenticate', CHALLENGE);
    throw new UnauthorizedException('A valid bearer token is required');
  }
}

for (const era of ['2025-11-25', '2026-07-28'] as McpTestEra[]) {
  describe(`echo behind a token guard, through mcp42/testing (${era})`, () => {
    let app: INestApplication;

    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [McpModule.forRoot({ name: APP_NAME, version: '1.0.0', guards: [TokenGuard] })],
        providers: [EchoTools],
      }).compile();
      app = createTestApp(moduleRef);
      await app.init();
    });

    afterAll(async () => {
      await app.close();
    });

    it('lists and calls echo with the token, the DTO checking its arguments, and no port open', async () => {
      const client = await createMcpTestClient(app, { era, headers: { authorization: `Bearer ${TOKEN}` } });
      try {
        expect(client.getServerVersion()?.name).toBe(APP_NAME);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['echo']);
        const called = await client.callTool({ name: 'echo', arguments: { text: 'hi', times: 2 } });
        expect(called.content).toEqual([{ type: 'text', text: 'hi hi' }]);
        const refused = await client.callTool({ name: 'echo', arguments: { text: 'hi', times: 9 } });
        expect(refused.isError).toBe(true);
      } finally {
        await client.close();
      }
      const server = app.getHttpServer() as Server;
      expect(server.listening).toBe(false);
      expect(server.address()).toBeNull();
    });

    it('rejects a JSON-RPC error with the McpError of the SDK copy this file imports', async () => {
      const client = await createMcpTestClient(app, { era, headers: { authorization: `Bearer ${TOKEN}` } });
      try {
        await expect(client.getPrompt({ name: 'no_such_prompt' })).rejects.toBeInstanceOf(McpError);
      } finally {
        await client.close();
      }
    });

    it('is refused without the token: 401 and the challenge', async () => {
      const refusal: unknown = await createMcpTestClient(app, { era }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(McpHttpError);
      expect((refusal as McpHttpError).status).toBe(401);
      expect((refusal as McpHttpError).challenge).toBe(CHALLENGE);
    });
  });
}
