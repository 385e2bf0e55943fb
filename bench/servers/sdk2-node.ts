import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { endpointUrl, HOST, type BenchServer } from './bench-server.js';

/**
 * The same echo tool as the mcp42 sample, its input as JSON Schema: the v2 SDK takes a Standard
 * Schema with JSON Schema output (zod 4 and others), and the zod this repository has (3.25) does
 * not give one; `fromJsonSchema` validates with the SDK's own Ajv.
 */
const ECHO_INPUT = fromJsonSchema<{ text: string }>({
  type: 'object',
  properties: { text: { type: 'string', minLength: 1 } },
  required: ['text'],
  additionalProperties: false,
});

/** One `McpServer` with the echo tool: `createMcpHandler` asks its factory for one per HTTP request. */
function createEchoServer(): McpServer {
  const server = new McpServer({ name: 'sdk2-bench', version: '0.1.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the given text unchanged', inputSchema: ECHO_INPUT },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

/**
 * The official SDK v2 as its docs serve 2026-07-28 on Node: `createMcpHandler` (stateless; a server
 * instance per request from the factory, JSON responses unless a call streams) behind
 * `@modelcontextprotocol/node`'s `toNodeHandler` on plain `node:http`.
 */
export async function startSdk2Node(): Promise<BenchServer> {
  const handler = createMcpHandler(createEchoServer);
  const serve = toNodeHandler(handler);
  const server = createServer((req, res) => {
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    void serve(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return {
    url: endpointUrl(server.address()),
    sessionCount: () => undefined,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
