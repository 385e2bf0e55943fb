import { SetMetadata } from '@nestjs/common';
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
 * @category Decorators
 */
export const McpTool = (options: McpToolOptions): MethodDecorator => SetMetadata(MCP_TOOL_METADATA, options);
