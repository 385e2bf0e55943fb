import { SetMetadata } from '@nestjs/common';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import { MCP_RESOURCE_METADATA } from '../mcp.constants.js';

/**
 * Exposes a provider or controller method as an MCP resource with a fixed URI, listed by
 * `resources/list` and read by `resources/read`.
 *
 * The method receives an empty arguments object and an {@link McpContext}, and runs behind the
 * same Nest pipeline as tools (guards hide it from callers they deny). It may return a string
 * (text), a `Buffer` or `Uint8Array` (a base64 blob), any other JSON value (sent as JSON text),
 * contents objects (`{ text }` / `{ blob }`, `uri` and `mimeType` defaulting to the URI read and the
 * declared `mimeType`), or a full `ReadResourceResult`. Returning `undefined` or `null`, or throwing
 * `NotFoundException`, answers -32002.
 *
 * @example
 * ```ts
 * @McpResource({ uri: 'weather://cities', name: 'cities', mimeType: 'application/json' })
 * cities() { return this.weather.cities(); }
 * ```
 * @category Decorators
 */
export const McpResource = (options: McpResourceOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_METADATA, options);
