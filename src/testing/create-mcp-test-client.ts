import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { connectTestClient, type TestClientSdk } from './connect-test-client.js';
import type { McpTestClientOptions } from './mcp-test-client-options.interface.js';

/** The SDK as this build loads it (CommonJS): `import` reaches the ES module entry instead. */
const SDK: TestClientSdk = { Client, ElicitRequestSchema, CreateMessageRequestSchema, ListRootsRequestSchema };

/**
 * A client of the official MCP SDK (`Client` of `@modelcontextprotocol/sdk`), connected to the
 * application's MCP endpoint inside the process: no port, no socket. Requests go through the app's
 * own HTTP server as requests from the network do, so middleware, endpoint guards, per-item
 * guards, pipes, interceptors and filters all run; only the Host/Origin check is skipped. Close it
 * with `client.close()` (which ends its session) before the app.
 *
 * @param app an application made with `createNestApplication()` and initialised (`await app.init()`;
 *   it is called again here, which Nest makes a no-op); it need not listen.
 * @throws McpHttpError when the application refuses the handshake (an endpoint guard's 401, say):
 *   `status`, `challenge` and the body's JSON-RPC error say why. Later calls reject with it too.
 *
 * @example
 * const client = await createMcpTestClient(app, { headers: { authorization: 'Bearer test-token' } });
 * const result = await client.callTool({ name: 'forecast', arguments: { city: 'Paris' } });
 * await client.close();
 */
export function createMcpTestClient(app: INestApplication, options: McpTestClientOptions = {}): Promise<Client> {
  return connectTestClient(SDK, app, options);
}
