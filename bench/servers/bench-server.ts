import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';

/** A server under test, listening on 127.0.0.1. */
export interface BenchServer {
  /** URL of its MCP (or MCP-like) endpoint. */
  readonly url: string;
  /** Live MCP sessions it holds, or undefined when it has no sessions (the bare Nest route). */
  sessionCount(): number | undefined;
  close(): Promise<void>;
}

export const HOST = '127.0.0.1';

/** The URL of the `/mcp` endpoint of a server bound to an ephemeral port. */
export function endpointUrl(address: unknown): string {
  const { port } = address as { port: number };
  return `http://${HOST}:${port}/mcp`;
}

/** The URL of the `/mcp` endpoint of a Nest app bound to an ephemeral port (Express or Fastify: a Node server). */
export function appEndpointUrl(app: INestApplication): string {
  return endpointUrl((app.getHttpServer() as Server).address());
}
