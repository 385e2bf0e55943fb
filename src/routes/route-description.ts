import { RequestMethod, VERSION_NEUTRAL, type VersioningOptions } from '@nestjs/common';

/** What `@Version()` and `defaultVersion` take (Nest does not export the name from its root). */
type VersionValue = VersioningOptions['defaultVersion'];
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
  VERSION_METADATA,
} from '@nestjs/common/constants.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';

/** Any class, as decorators see one. */
type AnyClass = abstract new (...args: never[]) => unknown;

/** Where an argument of a route-backed tool goes in the in-process request. */
export type ArgumentPlace = 'path' | 'query' | 'body';

/** A parameter of the route handler that takes part of the request: `@Param()`, `@Query()`, `@Body()`. */
export interface RouteParam {
  readonly place: ArgumentPlace;
  /** The field it takes (`@Query('days')`); `undefined` for the whole object (`@Query() query: ForecastQuery`). */
  readonly field: string | undefined;
  /** The parameter's declared type (`design:paramtypes`): a DTO class, `String`, `Number`… */
  readonly type: unknown;
  /** The pipes given to the decorator (`ParseIntPipe`, `new ParseEnumPipe(Units)`…), classes or instances. */
  readonly pipes: readonly unknown[];
}

/** What Nest's own decorators say about a route handler, read once at bootstrap. */
export interface RouteDescription {
  /** `GET`, `POST`… (`ALL` routes are called with POST). */
  readonly method: string;
  /** The path below the global prefix and version: controller path and handler path joined, `/` first. */
  readonly path: string;
  /** The URI version the route answers (`@Version()`, the controller's `version`); `undefined` when none. */
  readonly version: VersionValue | undefined;
  readonly params: readonly RouteParam[];
  /** The handler function, where swagger's method decorators store their metadata. */
  readonly handler: object;
  /** The status Nest answers a success with: `@HttpCode()`, else 201 for POST and 200 for the others. */
  readonly successStatus: number;
}

/**
 * Nest's `RouteParamtypes` of `@Body()`, `@Query()` and `@Param()` (3, 4, 5 since Nest 5): the enum
 * is not exported from the package root, and its deep path differs between Nest 11 and 12.
 */
const PLACES: ReadonlyMap<number, ArgumentPlace> = new Map([
  [5, 'path'],
  [4, 'query'],
  [3, 'body'],
]);

interface StoredParam {
  readonly index: number;
  readonly data?: unknown;
  readonly pipes?: readonly unknown[];
}

/**
 * Reads the route of `Class.method` from the metadata `@Controller()`, `@Get()`…, `@Version()`,
 * `@Param()`, `@Query()` and `@Body()` stored (the keys Nest's router reads).
 * @throws McpDefinitionError when the method is not a route handler of a controller.
 */
export function describeRoute(classRef: AnyClass, methodName: string, label: string): RouteDescription {
  const handler = (classRef.prototype as Record<string, unknown>)[methodName] as object;
  const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
  const controllerPath = Reflect.getMetadata(PATH_METADATA, classRef) as string | string[] | undefined;
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  if (methodPath === undefined || method === undefined || controllerPath === undefined) {
    throw new McpDefinitionError(
      `${label}: not a route handler; put @McpRoute() on a method of a @Controller() with @Get(), @Post()…`,
    );
  }
  const version = (Reflect.getMetadata(VERSION_METADATA, handler) ??
    Reflect.getMetadata(VERSION_METADATA, classRef)) as VersionValue | undefined;
  const httpCode = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  return {
    method: method === RequestMethod.ALL ? 'POST' : RequestMethod[method],
    path: joinPaths(firstOf(controllerPath), firstOf(methodPath)),
    version: version === VERSION_NEUTRAL ? undefined : version,
    params: paramsOf(classRef, methodName),
    handler,
    successStatus: httpCode ?? (method === RequestMethod.POST ? 201 : 200),
  };
}

/** A route declared under several paths is called under its first. */
function firstOf(path: string | string[]): string {
  return Array.isArray(path) ? (path[0] ?? '') : path;
}

function joinPaths(...parts: string[]): string {
  const joined = parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '')
    .join('/');
  return `/${joined}`;
}

function paramsOf(classRef: AnyClass, methodName: string): RouteParam[] {
  const stored = (Reflect.getMetadata(ROUTE_ARGS_METADATA, classRef, methodName) ?? {}) as Record<string, StoredParam>;
  const types = (Reflect.getMetadata('design:paramtypes', classRef.prototype as object, methodName) ?? []) as unknown[];
  const params: RouteParam[] = [];
  for (const [key, param] of Object.entries(stored)) {
    const place = PLACES.get(Number(key.split(':')[0]));
    if (place === undefined) continue;
    const field = typeof param.data === 'string' && param.data !== '' ? param.data : undefined;
    params.push({ place, field, type: types[param.index], pipes: param.pipes ?? [] });
  }
  return params;
}
