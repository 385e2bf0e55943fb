import { SetMetadata } from '@nestjs/common';
import { ENTRY_PROVIDER_WATERMARK } from '@nestjs/common/constants.js';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';

/**
 * Exposes a provider or controller method as an MCP tool.
 *
 * The method receives the validated arguments (an instance of `input`) and an {@link McpContext}.
 * It may return a string (one text block), an array of content blocks, a `CallToolResult`, nothing
 * (`undefined` or `null`: empty content), or any other JSON value (sent as JSON text); with `output`,
 * an object that becomes `structuredContent`. Throwing {@link McpToolError} produces a tool error
 * result the model can read; any other exception becomes a JSON-RPC internal error and is logged.
 *
 * @example
 * ```ts
 * @McpTool({ description: 'Current weather for a city', input: CityArgs })
 * forecast(args: CityArgs, ctx: McpContext) { return `Sunny in ${args.city}`; }
 * ```
 */
export function McpTool(options: McpToolOptions): MethodDecorator {
  const setOptions = SetMetadata(MCP_TOOL_METADATA, options);
  return (target, key, descriptor) => {
    setOptions(target, key, descriptor);
    // A class holding tools is an entry point of requests, as a controller is: Nest then gives it
    // the request-scoped and transient global enhancers a controller would get. Without the mark a
    // request-scoped APP_GUARD would be skipped for its tools, silently.
    Reflect.defineMetadata(ENTRY_PROVIDER_WATERMARK, true, target.constructor);
  };
}
