import {
  DefaultValuePipe,
  ParseArrayPipe,
  ParseBoolPipe,
  ParseEnumPipe,
  ParseFloatPipe,
  ParseIntPipe,
  ParseUUIDPipe,
  type Type,
} from '@nestjs/common';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import type { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { DtoSchemas } from './dto-schemas.js';
import { mergeSchemas } from './merge-schemas.js';
import type { Schema } from './openapi-schema.js';
import type { ArgumentPlace, RouteDescription, RouteParam } from './route-description.js';
import { swaggerParameters, type SwaggerParameter } from './swagger-metadata.js';
import { swaggerSchema } from './swagger-schema.js';

/** The input of a route-backed tool: its flat schema, and where each argument goes in the request. */
export interface RouteInput {
  readonly schema: JsonSchemaObject;
  readonly places: ReadonlyMap<string, ArgumentPlace>;
}

/** One argument being collected: its schema, whether it is required, and what declared it (for collisions). */
interface Field {
  readonly place: ArgumentPlace;
  readonly schema: Schema;
  readonly required: boolean;
  /** Whether the route itself decides `required` (a parse pipe, a DTO, the path); if not, swagger may. */
  readonly decided: boolean;
  readonly source: string;
}

/** `:city` in a path (Nest's routers take the same names); `{/:page}` marks an optional segment. */
const PATH_TOKEN = /(\{[^}]*)?:([A-Za-z0-9_]+)/g;

/** `*path`, `{*path}` (path-to-regexp 8) and the older `*` and `(.*)` forms. */
const WILDCARD = /\*|\(/;

const PRIMITIVES: ReadonlySet<unknown> = new Set([String, Number, Boolean, Object, Array, undefined]);

/**
 * Builds the one flat object schema of a route-backed tool from the route's path parameters,
 * `@Query()` and `@Body()` (DTO classes through the same class-validator conversion tools use, with
 * their `@nestjs/swagger` descriptions when the application uses it; single fields from their
 * declared type and built-in pipes), `@ApiParam()`, `@ApiQuery()` and `@ApiBody()`, without `$ref`.
 * @throws McpDefinitionError naming both places when one name is declared twice, for a whole
 *   `@Query()`/`@Body()`/`@Param()` object with neither a DTO class nor `@ApiBody()` to describe it,
 *   or for a wildcard path segment.
 */
export function buildRouteInput(route: RouteDescription, converter: DtoJsonSchemaConverter, label: string): RouteInput {
  if (WILDCARD.test(route.path)) {
    throw new McpDefinitionError(
      `${label}: the path ${route.path} has a wildcard segment, which route-backed tools do not fill; ` +
        'declare :name parameters instead, or leave this route out',
    );
  }
  const dtos = new DtoSchemas(converter, label);
  const documented = swaggerParameters(route.handler);
  const fields = new Map<string, Field>();
  const add = (name: string, field: Field): void => {
    const existing = fields.get(name);
    if (existing && !(existing.place === 'path' && field.place === 'path')) {
      throw new McpDefinitionError(
        `${label}: the argument "${name}" is declared twice: as ${existing.source} and as ${field.source}; ` +
          'a route-backed tool takes one flat object, so rename one of them',
      );
    }
    // A path parameter named by the path and by @Param('x') is one argument: the decorator describes it.
    fields.set(name, existing ? { ...field, required: true } : field);
  };
  for (const [, optional, name] of route.path.matchAll(PATH_TOKEN)) {
    add(name!, {
      place: 'path',
      schema: { type: 'string' },
      required: optional === undefined,
      decided: true,
      source: `path parameter :${name}`,
    });
  }
  for (const param of route.params) {
    if (param.field !== undefined) {
      add(param.field, {
        place: param.place,
        schema: fieldSchema(param),
        required: param.place === 'path' || isRequired(param),
        decided: param.place === 'path' || decidesPresence(param),
        source: `${PLACE_NAMES[param.place]} ${param.field}`,
      });
      continue;
    }
    const { schema, from } = wholeSchema(param, documented, dtos, label);
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      add(name, {
        place: param.place,
        schema: property,
        required: param.place === 'path' || required.has(name),
        decided: true,
        source: `a field of the ${PLACE_NAMES[param.place]} (${from})`,
      });
    }
  }
  for (const parameter of documented) {
    if ((parameter.in !== 'path' && parameter.in !== 'query') || !parameter.name) continue;
    const name = parameter.name;
    const described = swaggerSchema(parameter, (dto) => dtos.of(dto));
    // Swagger documents a path or query parameter without a type as a string: it is text on the wire.
    const schema =
      described.type === undefined && described.enum === undefined ? { type: 'string', ...described } : described;
    const existing = fields.get(name);
    const source = `${parameter.in === 'path' ? '@ApiParam()' : '@ApiQuery()'} ${name}`;
    if (existing === undefined) {
      // Swagger documents a query field the handler reads another way (@Req()): it is still the route's.
      if (parameter.in === 'query') {
        add(name, { place: 'query', schema, required: parameter.required !== false, decided: true, source });
      }
      continue;
    }
    if (existing.place !== parameter.in)
      add(name, { place: parameter.in, schema, required: false, decided: true, source });
    fields.set(name, {
      ...existing,
      schema: mergeSchemas(existing.schema, schema),
      required: existing.decided ? existing.required : parameter.required !== false,
    });
  }
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const places = new Map<string, ArgumentPlace>();
  for (const [name, field] of fields) {
    properties[name] = field.schema;
    places.set(name, field.place);
    if (field.required) required.push(name);
  }
  const schema: JsonSchemaObject = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
  return { schema, places };
}

/**
 * The schema of a whole `@Query()`, `@Body()` or `@Param()` object: its DTO class, else (for a body)
 * the class or object schema `@ApiBody()` gives.
 */
function wholeSchema(
  param: RouteParam,
  documented: readonly SwaggerParameter[],
  dtos: DtoSchemas,
  label: string,
): { schema: Schema; from: string } {
  const dto = param.type;
  if (!PRIMITIVES.has(dto) && typeof dto === 'function') {
    return { schema: dtos.of(dto as Type<object>), from: (dto as Type<object>).name };
  }
  const body = param.place === 'body' ? documented.find((parameter) => parameter.in === 'body') : undefined;
  if (body !== undefined && body.isArray !== true) {
    const schema = swaggerSchema(body, (nested) => dtos.of(nested));
    if (schema.type === 'object' && schema.properties !== undefined) {
      const type = body.type;
      return { schema, from: typeof type === 'function' && type !== String ? `@ApiBody() ${type.name}` : '@ApiBody()' };
    }
  }
  throw new McpDefinitionError(
    `${label}: ${DECORATORS[param.place]} takes the whole ${PLACE_NAMES[param.place]} without a DTO class to ` +
      "describe it; declare its type as a class with class-validator decorators, or name the field (@Query('days'))" +
      (param.place === 'body' ? ', or describe it with @ApiBody({ type }) of @nestjs/swagger' : ''),
  );
}

const PLACE_NAMES: Readonly<Record<ArgumentPlace, string>> = { path: 'path parameter', query: 'query', body: 'body' };
const DECORATORS: Readonly<Record<ArgumentPlace, string>> = { path: '@Param()', query: '@Query()', body: '@Body()' };

/** Whether a pipe of `param` is `pipe` (given as the class or as an instance). */
function hasPipe(param: RouteParam, pipe: Type<unknown>): unknown {
  return param.pipes.find((given) => given === pipe || given instanceof pipe);
}

/** The schema of one named field: from its parse pipe when it has one, else from its declared type. */
function fieldSchema(param: RouteParam): Schema {
  if (hasPipe(param, ParseIntPipe)) return { type: 'integer' };
  if (hasPipe(param, ParseFloatPipe)) return { type: 'number' };
  if (hasPipe(param, ParseBoolPipe)) return { type: 'boolean' };
  if (hasPipe(param, ParseUUIDPipe)) return { type: 'string', format: 'uuid' };
  if (hasPipe(param, ParseArrayPipe)) return { type: 'array' };
  const enumPipe = hasPipe(param, ParseEnumPipe);
  if (enumPipe instanceof ParseEnumPipe)
    return { enum: enumValues((enumPipe as unknown as { enumType: object }).enumType) };
  if (param.type === Number) return { type: 'number' };
  if (param.type === Boolean) return { type: 'boolean' };
  if (param.type === String || param.place !== 'body') return { type: 'string' };
  return {};
}

/** A TypeScript enum's values, without the reverse mapping numeric enums add. */
function enumValues(enumType: object): unknown[] {
  return Object.entries(enumType)
    .filter(([key]) => Number.isNaN(Number(key)))
    .map(([, value]: [string, unknown]) => value);
}

/** Whether the route's pipes settle whether a named field may be missing (a parse pipe or a default). */
function decidesPresence(param: RouteParam): boolean {
  const pipes = [
    DefaultValuePipe,
    ParseIntPipe,
    ParseFloatPipe,
    ParseBoolPipe,
    ParseUUIDPipe,
    ParseEnumPipe,
    ParseArrayPipe,
  ];
  return pipes.some((pipe) => hasPipe(param, pipe) !== undefined);
}

/**
 * Whether a named query or body field must be given: when a parse pipe would refuse it missing
 * (`ParseIntPipe` without `optional: true`) and no `DefaultValuePipe` fills it in.
 */
function isRequired(param: RouteParam): boolean {
  if (hasPipe(param, DefaultValuePipe)) return false;
  return param.pipes.some((pipe) => {
    const parse = [ParseIntPipe, ParseFloatPipe, ParseBoolPipe, ParseUUIDPipe, ParseEnumPipe, ParseArrayPipe];
    if (!parse.some((type) => pipe === type || pipe instanceof type)) return false;
    return typeof pipe === 'function' || (pipe as { options?: { optional?: boolean } }).options?.optional !== true;
  });
}
