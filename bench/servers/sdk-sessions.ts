import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
// The SDK imports zod/v4 itself and accepts v3.25+ or v4 schemas; zod 3.25 ships both entry points.
import * as z from 'zod/v4';

/** One `McpServer` per session, with the same echo tool as the mcp42 sample. */
function createEchoServer(): McpServer {
  const server = new McpServer({ name: 'sdk-bench', version: '0.1.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the given text unchanged', inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

/**
 * The official SDK's documented stateful pattern: a `StreamableHTTPServerTransport` and an
 * `McpServer` per session, kept in a map by session id, JSON responses on.
 */
export class SdkSessions {
  private readonly transports = new Map<string, StreamableHTTPServerTransport>();

  get size(): number {
    return this.transports.size;
  }

  /**
   * Routes one request to its session's transport, or creates a session for an `initialize`.
   * @param parsedBody the body when a framework parsed it already; the transport reads it otherwise.
   */
  async handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = this.transports.get(sessionId);
      if (!transport) return reply(res, 404, 'Session not found');
      return transport.handleRequest(req, res, parsedBody);
    }
    // Without a parsed body the new transport itself refuses anything but an initialize.
    if (req.method !== 'POST' || (parsedBody !== undefined && !isInitializeRequest(parsedBody))) {
      return reply(res, 400, 'Bad Request: No valid session ID provided');
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.transports.delete(transport.sessionId);
    };
    await createEchoServer().connect(transport);
    await transport.handleRequest(req, res, parsedBody);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.transports.values()].map((transport) => transport.close()));
  }
}

function reply(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
}
