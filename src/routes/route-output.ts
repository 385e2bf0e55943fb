import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import type { DtoSchemas } from './dto-schemas.js';
import { openObjects } from './merge-schemas.js';
import type { Schema } from './openapi-schema.js';
import type { RouteDescription } from './route-description.js';
import { swaggerResponses, type SwaggerMeta } from './swagger-metadata.js';
import { swaggerSchema } from './swagger-schema.js';

/** Any class, as decorators see one. */
type AnyClass = abstract new (...args: never[]) => unknown;

/** The property an array body is sent under: MCP structured content is an object. */
export const WRAPPED_RESULT = 'result';

/** The output schema swagger declares for a route, and whether its array body is sent wrapped. */
export interface RouteOutput {
  readonly schema: JsonSchemaObject;
  /** The body is a JSON array, sent as `structuredContent` under {@link WRAPPED_RESULT}. */
  readonly wrapped: boolean;
}

/**
 * The output schema of a route from the response swagger declares (`@ApiOkResponse({ type })`,
 * `@ApiCreatedResponse()`, `@ApiResponse({ status, type })`, on the handler or its controller): the
 * one for the status the route answers, else the lowest 2xx with a type or schema. Its objects are
 * left open (a response may carry more than its documentation says); an array is wrapped in an
 * object. `undefined` when swagger declares none, or a body that is neither an object nor an array.
 */
export function routeOutput(route: RouteDescription, classRef: AnyClass, dtos: DtoSchemas): RouteOutput | undefined {
  const responses = swaggerResponses(classRef, route.handler);
  const typed = Object.entries(responses)
    .filter(([status, meta]) => /^2\d\d$/.test(status) && (meta.type !== undefined || meta.schema !== undefined))
    .sort(([a], [b]) => Number(a) - Number(b));
  const chosen = typed.find(([status]) => Number(status) === route.successStatus) ?? typed[0];
  if (chosen === undefined) return undefined;
  const schema = openObjects(swaggerSchema(withoutEmptyDescription(chosen[1]), (dto) => dtos.of(dto))) as Schema;
  if (schema.type === 'object') return { schema: schema as JsonSchemaObject, wrapped: false };
  if (schema.type !== 'array') return undefined;
  return {
    schema: { type: 'object', properties: { [WRAPPED_RESULT]: schema }, required: [WRAPPED_RESULT] },
    wrapped: true,
  };
}

/** `@ApiResponse()` stores `description: ''` when none is given. */
function withoutEmptyDescription(meta: SwaggerMeta): SwaggerMeta {
  if (meta.description !== '') return meta;
  const { description: _description, ...rest } = meta;
  return rest;
}
