import { SetMetadata } from '@nestjs/common';
import { MCP_ROUTE_METADATA } from '../mcp.constants.js';
import type { McpRouteOptions } from '../interfaces/mcp-route-options.interface.js';

/**
 * Exposes a controller route (`@Get()`, `@Post()`…) as an MCP tool. Only decorated routes become
 * tools; on a controller class, it exposes the class's routes whose HTTP method `methods` names
 * (GET and HEAD by default), each named from its swagger `operationId` or its method's name in
 * snake_case, and each left out with `@McpRoute({ exclude: true })`. The tool's input is one flat object
 * of the route's path parameters, `@Query()` fields and `@Body()` fields, described from the DTO
 * classes, built-in pipes (`ParseIntPipe`, `ParseUUIDPipe`, `ParseEnumPipe`…) and `@nestjs/swagger`
 * metadata the route already declares. A call runs the route in-process
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
 *
 * @McpRoute()
 * @Controller('books')
 * class BooksController { … } // its GET routes: list_books, get_book…
 * ```
 * @category Decorators
 */
export const McpRoute = (options: McpRouteOptions = {}): MethodDecorator & ClassDecorator =>
  SetMetadata(MCP_ROUTE_METADATA, options);
