import { SetMetadata } from '@nestjs/common';
import type { McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import { MCP_RESOURCE_TEMPLATE_METADATA } from '../mcp.constants.js';

/**
 * Exposes a provider or controller method as an MCP resource template: `resources/read` of any URI
 * matching its RFC 6570 `uriTemplate` runs it with the variables the URI fills (validated with
 * `variables`, when given) and an {@link McpContext}. It returns what an {@link McpResource}
 * method returns; the contents' `uri` defaults to the URI read.
 *
 * @example
 * ```ts
 * // ForecastVars declares exactly the template's variables: `city`.
 * @McpResourceTemplate({ uriTemplate: 'weather://forecast/{city}', name: 'forecast', variables: ForecastVars })
 * forecast({ city }: ForecastVars) { return this.weather.forecast(city); }
 * ```
 * @category Decorators
 */
export const McpResourceTemplate = (options: McpResourceTemplateOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options);
