import { SetMetadata } from '@nestjs/common';
import { MCP_ROUTE_METADATA } from '../mcp.constants.js';
import type { McpRouteOptions } from '../interfaces/mcp-route-options.interface.js';

/**
 * Exposes a controller route (`@Get()`, `@Post()`…) as an MCP tool. Only decorated routes become
 * tools. The tool's input is one flat object of the route's path parameters, `@Query()` fields and
 * `@Body()` fields, described from the DTO classes and built-in pipes (`ParseIntPipe`,
 * `ParseUUIDPipe`, `ParseEnumPipe`…) the route already declares. A call runs the route in-process
 * through the application's own HTTP handler: its middleware, guards, interceptors, pipes and
 * exception filters behave as over HTTP, and the caller's `Authorization` header reaches them
 * (`routes.forwardHeaders`). A 2xx JSON body becomes `structuredContent`; a 4xx an error result
 * with the body's message; 401 and 403 an error saying the caller is not allowed; a 5xx a generic
 * error, its body logged and never sent.
 *
 * @example
 * ```ts
 * @McpRoute({ name: 'get_forecast', description: 'Daily forecast of a city' })
 * @Get('forecasts/:city')
 * forecast(@Param('city') city: string, @Query() query: ForecastQuery) { … }
 * ```
 * @category Decorators
 */
export const McpRoute = (options: McpRouteOptions = {}): MethodDecorator => SetMetadata(MCP_ROUTE_METADATA, options);
