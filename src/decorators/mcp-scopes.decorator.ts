import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ScopesGuard } from '../guards/scopes.guard.js';
import { MCP_SCOPES_METADATA } from '../mcp.constants.js';

/**
 * Requires OAuth scopes of the caller (`request.user`, as the endpoint's authentication guard set
 * it) for a tool, or for every tool of a class: a caller without all of them neither sees the tool
 * in `tools/list` nor can call it. Scopes of the class and the method add up.
 *
 * @example
 * ```ts
 * @McpScopes('weather:read')
 * @McpTool({ description: 'Forecast for a city', input: CityArgs })
 * forecast(args: CityArgs) { ... }
 * ```
 * @category Decorators
 */
export function McpScopes(...scopes: string[]): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(MCP_SCOPES_METADATA, scopes), UseGuards(ScopesGuard));
}
