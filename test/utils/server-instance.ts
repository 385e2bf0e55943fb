import type { INestApplicationContext, Type } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS, type ResolvedMcpOptions } from '../internals/index.js';

/**
 * A provider of one MCP server of an application that serves several: `app.get(token)` alone gives
 * the last server's. Every `McpModule` provides its options and its registries and stores, and Nest
 * lists each token's instances in the order of the modules, so the server's position among the
 * options is its position among the instances.
 */
export function serverInstance<T>(app: INestApplicationContext, server: string, token: Type<T>): T {
  const options = app.get<symbol, ResolvedMcpOptions>(MCP_RESOLVED_OPTIONS, { each: true });
  const instances = app.get<Type<T>, T>(token, { each: true });
  if (instances.length !== options.length) {
    throw new Error(`${token.name}: ${instances.length} instance(s) for ${options.length} MCP server(s)`);
  }
  const index = options.findIndex((served) => served.name === server);
  if (index < 0) throw new Error(`No MCP server named '${server}' in this application`);
  return instances[index]!;
}
