import type { INestApplication } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server } from 'node:http';
import { InProcessHttp } from './in-process-http.js';
import { InProcessTransport } from './in-process.transport.js';
import type { McpTestClientOptions } from './mcp-test-client-options.interface.js';

/**
 * What the kit takes of the official SDK, handed in by the entry of each module system: the SDK is
 * published as two copies (CommonJS and ES modules), and a test's `instanceof McpError` or `Client`
 * type only matches the copy its own imports load. `mcp42/testing` from `require()` hands in the
 * CommonJS copy (./create-mcp-test-client.ts), from `import` the ES module one (the ES module entry
 * of scripts/build-package.mjs).
 */
export interface TestClientSdk {
  readonly Client: typeof Client;
  readonly ElicitRequestSchema: typeof ElicitRequestSchema;
  readonly CreateMessageRequestSchema: typeof CreateMessageRequestSchema;
  readonly ListRootsRequestSchema: typeof ListRootsRequestSchema;
}

const DEFAULT_CLIENT_INFO = { name: 'mcp42-test-client', version: '1.0.0' };

/** `createMcpTestClient()` with the SDK of the caller's module system. */
export async function connectTestClient(
  sdk: TestClientSdk,
  app: INestApplication,
  options: McpTestClientOptions = {},
): Promise<Client> {
  await app.init();
  await platformReady(app);
  const http = new InProcessHttp(app.getHttpServer() as Server, pathOf(options.path), lowerCased(options.headers));
  const client = new sdk.Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities: capabilitiesOf(options) });
  const { onElicitation, onSampling, roots } = options;
  if (onElicitation) client.setRequestHandler(sdk.ElicitRequestSchema, (request) => onElicitation(request.params));
  if (onSampling) client.setRequestHandler(sdk.CreateMessageRequestSchema, (request) => onSampling(request.params));
  if (roots) {
    client.setRequestHandler(sdk.ListRootsRequestSchema, async () => ({
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
