import { SetMetadata } from '@nestjs/common';
import { MCP_PUBLIC_METADATA } from '../mcp.constants.js';

/**
 * Exempts a tool from the scopes `@McpScopes()` requires on its class. Your own guards can honour
 * it too: `reflector.getAllAndOverride(MCP_PUBLIC_METADATA, [context.getHandler(), context.getClass()])`.
 * It does not open the endpoint: guards of the MCP route itself (`forRoot({ guards })`, `APP_GUARD`)
 * still run for every request.
 * @category Decorators
 */
export function McpPublic(): MethodDecorator & ClassDecorator {
  return SetMetadata(MCP_PUBLIC_METADATA, true);
}
