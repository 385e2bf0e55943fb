import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpRouteOptions } from '../interfaces/mcp-route-options.interface.js';
import { swaggerExcluded, swaggerOperation } from './swagger-metadata.js';

/** What a controller's `@McpRoute()` exposes unless told otherwise: routes that only read. */
const READING_METHODS: readonly string[] = ['GET', 'HEAD'];

/** Options that describe one route: on a controller class they would name every route alike. */
const METHOD_ONLY = ['name', 'title', 'description', 'output', 'exclude'] as const;

/** Options shared by the routes of a controller, which a route's own `@McpRoute()` overrides. */
const SHARED = ['annotations', 'icons', 'timeoutMs', '_meta'] as const;

/**
 * The `@McpRoute()` options a controller's handler is served with: its own, over the defaults of
 * the controller's `@McpRoute()`; for a handler without its own, the controller's when the route's
 * HTTP method is one of its `methods` and swagger does not hide the route. `undefined` when the
 * handler is no tool (not a route of a decorated controller, or `exclude: true`).
 * @throws McpDefinitionError for options on the wrong target (`name` on a class, `methods` on a method).
 */
export function selectRoute(
  classOptions: McpRouteOptions | undefined,
  methodOptions: McpRouteOptions | undefined,
  handler: object,
  owner: string,
): McpRouteOptions | undefined {
  if (methodOptions?.methods !== undefined) {
    throw new McpDefinitionError(
      `@McpRoute() on ${owner}: methods belongs on the controller class, where it selects its routes`,
    );
  }
  if (methodOptions?.exclude === true) return undefined;
  if (classOptions === undefined) return methodOptions;
  const misplaced = METHOD_ONLY.filter((key) => classOptions[key] !== undefined);
  if (misplaced.length > 0) {
    throw new McpDefinitionError(
      `@McpRoute() on the controller of ${owner}: ${misplaced.join(', ')} describe one route; ` +
        'put them on its method',
    );
  }
  const shared = Object.fromEntries(
    SHARED.filter((key) => classOptions[key] !== undefined).map((key) => [key, classOptions[key]]),
  );
  if (methodOptions !== undefined) return { ...shared, ...methodOptions };
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  if (method === undefined || swaggerExcluded(handler)) return undefined;
  const methods = classOptions.methods ?? READING_METHODS;
  return methods.includes(RequestMethod[method]) ? shared : undefined;
}

/**
 * The name of a route-backed tool: the one given, else the swagger `operationId`, else the
 * handler's name in snake_case (`getForecast` → `get_forecast`, `listHTTPLogs` → `list_http_logs`).
 */
export function routeToolName(options: McpRouteOptions, handler: object, methodName: string): string {
  return options.name ?? swaggerOperation(handler)?.operationId ?? snakeCase(methodName);
}

function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
