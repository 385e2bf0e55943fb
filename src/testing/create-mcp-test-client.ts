import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server } from 'node:http';
import { InProcessHttp } from './in-process-http.js';
import { InProcessTransport } from './in-process.transport.js';
import type { McpTestClientOptions } from './mcp-test-client-options.interface.js';

const DEFAULT_CLIENT_INFO = { name: 'mcp42-test-client', version: '1.0.0' };

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
export async function createMcpTestClient(app: INestApplication, options: McpTestClientOptions = {}): Promise<Client> {
  await app.init();
  await platformReady(app);
  const http = new InProcessHttp(app.getHttpServer() as Server, pathOf(options.path), lowerCased(options.headers));
  const client = new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities: capabilitiesOf(options) });
  const { onElicitation, onSampling, roots } = options;
  if (onElicitation) client.setRequestHandler(ElicitRequestSchema, (request) => onElicitation(request.params));
  if (onSampling) client.setRequestHandler(CreateMessageRequestSchema, (request) => onSampling(request.params));
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [...(typeof roots === 'function' ? await roots() : roots)],
    }));
  }
  await client.connect(new InProcessTransport(http, options.era ?? '2025-11-25'));
  return client;
}

/** Fastify serves its routes once it is ready (its plugins loaded); Express at once. */
async function platformReady(app: INestApplication): Promise<void> {
  const adapter = app.getHttpAdapter();
  if (adapter.getType() !== 'fastify') return;
  const instance = adapter.getInstance() as { ready?: () => PromiseLike<unknown> };
  await instance.ready?.();
}

/** The declared capabilities: the options', and one per handler given. */
function capabilitiesOf(options: McpTestClientOptions): ClientCapabilities {
  return {
    ...options.capabilities,
    ...(options.onElicitation ? { elicitation: options.capabilities?.elicitation ?? {} } : {}),
    ...(options.onSampling ? { sampling: options.capabilities?.sampling ?? {} } : {}),
    ...(options.roots ? { roots: options.capabilities?.roots ?? {} } : {}),
  };
}

function pathOf(path: string | undefined): string {
  if (path === undefined) return '/mcp';
  return path.startsWith('/') ? path : `/${path}`;
}

function lowerCased(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}
