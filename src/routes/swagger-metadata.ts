import { SWAGGER_METADATA } from '../mcp.constants.js';

/** Any class, as decorators see one. */
type AnyClass = abstract new (...args: never[]) => unknown;

/**
 * What `@ApiProperty()`, `@ApiParam()`, `@ApiQuery()`, `@ApiBody()` and `@ApiResponse()` store: an
 * OpenAPI schema object's keywords beside swagger's own (`type` as a class, a lazy `() => Class`, a
 * type name or `[Class]`; `isArray`; `enum`; `required` as a boolean).
 */
export type SwaggerMeta = Record<string, unknown>;

/** `@ApiOperation()` on a route handler. */
export interface SwaggerOperation {
  readonly summary?: string;
  readonly description?: string;
  readonly operationId?: string;
}

/** One of `@ApiParam()`, `@ApiQuery()`, `@ApiBody()` on a route handler (or its controller). */
export interface SwaggerParameter extends SwaggerMeta {
  readonly in: 'path' | 'query' | 'body' | 'header' | 'cookie';
  readonly name?: string;
}

/** The `@ApiOperation()` of a route handler; `undefined` without swagger or the decorator. */
export function swaggerOperation(handler: object): SwaggerOperation | undefined {
  return Reflect.getMetadata(SWAGGER_METADATA.operation, handler) as SwaggerOperation | undefined;
}

/** The `@ApiParam()`, `@ApiQuery()` and `@ApiBody()` of a route handler, those of its controller included. */
export function swaggerParameters(handler: object): readonly SwaggerParameter[] {
  return (Reflect.getMetadata(SWAGGER_METADATA.parameters, handler) ?? []) as SwaggerParameter[];
}

/** The declared responses of a route handler by status (`'200'`, `'default'`…), the controller's beneath. */
export function swaggerResponses(classRef: AnyClass, handler: object): Readonly<Record<string, SwaggerMeta>> {
  return {
    ...(Reflect.getMetadata(SWAGGER_METADATA.responses, classRef) as Record<string, SwaggerMeta> | undefined),
    ...(Reflect.getMetadata(SWAGGER_METADATA.responses, handler) as Record<string, SwaggerMeta> | undefined),
  };
}

/** Whether `@ApiExcludeEndpoint()` hides the route from the API's documentation. */
export function swaggerExcluded(handler: object): boolean {
  const excluded = Reflect.getMetadata(SWAGGER_METADATA.excludeEndpoint, handler) as { disable?: boolean } | undefined;
  return excluded?.disable === true;
}

/**
 * The swagger properties of a DTO class, by name, in declaration order: those of swagger's CLI
 * plugin (its generated static factory, base classes first) beneath those of `@ApiProperty()`.
 * Empty for a class swagger knows nothing of.
 */
export function swaggerProperties(dto: AnyClass): ReadonlyMap<string, SwaggerMeta> {
  const properties = new Map<string, SwaggerMeta>();
  const chain: AnyClass[] = [];
  for (let type: unknown = dto; typeof type === 'function' && type !== Function.prototype;) {
    chain.unshift(type as AnyClass);
    type = Object.getPrototypeOf(type);
  }
  for (const type of chain) {
    if (!Object.prototype.hasOwnProperty.call(type, SWAGGER_METADATA.metadataFactory)) continue;
    const factory = (type as unknown as Record<string, unknown>)[SWAGGER_METADATA.metadataFactory];
    if (typeof factory !== 'function') continue;
    const generated = (factory as () => Record<string, SwaggerMeta> | undefined)() ?? {};
    for (const [name, meta] of Object.entries(generated)) properties.set(name, { ...properties.get(name), ...meta });
  }
  const prototype = dto.prototype as object;
  const keys = (Reflect.getMetadata(SWAGGER_METADATA.modelPropertiesArray, prototype) ?? []) as string[];
  for (const key of keys) {
    const name = key.startsWith(':') ? key.slice(1) : key;
    const meta = Reflect.getMetadata(SWAGGER_METADATA.modelProperties, prototype, name) as SwaggerMeta | undefined;
    properties.set(name, { ...properties.get(name), ...meta });
  }
  return properties;
}
