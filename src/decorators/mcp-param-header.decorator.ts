import { JSONSchema } from 'class-validator-jsonschema';
import { X_MCP_HEADER } from '../protocol/param-headers.js';

/** An RFC 9110 token: what a header name is made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Asks 2026-07-28 clients to mirror this argument of a tool's input DTO into an `Mcp-Param-<name>`
 * HTTP header (`x-mcp-header` in its schema), so that gateways and load balancers can route or
 * rate-limit on it without reading the body. mcp42 checks that the header matches the argument
 * (400, -32020 otherwise). Only for `string`, integer and `boolean` properties of the tool's input
 * DTO itself: a nested DTO becomes a `$ref`, which clients do not follow, so a header marked there is
 * a definition error at bootstrap. A raw JSON Schema input says `'x-mcp-header': name` on the property
 * instead (nested objects are fine there, as long as only `properties` lead to it).
 *
 * @param name the part after `Mcp-Param-`: an HTTP token, unique (whatever its case) within the tool.
 * @example
 * ```ts
 * class QueryArgs {
 *   @IsString() @McpParamHeader('Region') region!: string;
 *   @IsString() query!: string;
 * }
 * ```
 * @category Decorators
 */
export function McpParamHeader(name: string): PropertyDecorator {
  if (typeof name !== 'string' || !TOKEN.test(name)) {
    throw new TypeError(
      `@McpParamHeader(): ${JSON.stringify(name)} is not an HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`,
    );
  }
  return JSONSchema({ [X_MCP_HEADER]: name } as Parameters<typeof JSONSchema>[0]) as PropertyDecorator;
}
