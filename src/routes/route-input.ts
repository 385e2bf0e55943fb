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
import { inlineRefs } from './inline-refs.js';
import type { ArgumentPlace, RouteDescription, RouteParam } from './route-description.js';

/** The input of a route-backed tool: its flat schema, and where each argument goes in the request. */
export interface RouteInput {
  readonly schema: JsonSchemaObject;
  readonly places: ReadonlyMap<string, ArgumentPlace>;
}

type Schema = Record<string, unknown>;

/** One argument being collected: its schema, whether it is required, and what declared it (for collisions). */
interface Field {
  readonly place: ArgumentPlace;
  readonly schema: Schema;
  readonly required: boolean;
  readonly source: string;
}

/** `:city` in a path (Nest's routers take the same names); `{/:page}` marks an optional segment. */
const PATH_TOKEN = /(\{[^}]*)?:([A-Za-z0-9_]+)/g;

const PRIMITIVES: ReadonlySet<unknown> = new Set([String, Number, Boolean, Object, Array, undefined]);

/**
 * Builds the one flat object schema of a route-backed tool from the route's path parameters,
 * `@Query()` and `@Body()` (DTO classes through the same class-validator conversion tools use,
 * single fields from their declared type and built-in pipes), without `$ref`.
 * @throws McpDefinitionError naming both places when one name is declared twice, or for a whole
 *   `@Query()`/`@Body()`/`@Param()` object without a DTO class to describe it.
 */
export function buildRouteInput(route: RouteDescription, converter: DtoJsonSchemaConverter, label: string): RouteInput {
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
      source: `path parameter :${name}`,
    });
  }
  for (const param of route.params) {
    if (param.field !== undefined) {
      add(param.field, {
        place: param.place,
        schema: fieldSchema(param),
        required: param.place === 'path' || isRequired(param),
        source: `${PLACE_NAMES[param.place]} ${param.field}`,
      });
      continue;
    }
    const dto = param.type;
    if (PRIMITIVES.has(dto) || typeof dto !== 'function') {
      throw new McpDefinitionError(
        `${label}: ${DECORATORS[param.place]} takes the whole ${PLACE_NAMES[param.place]} without a DTO class to ` +
          "describe it; declare its type as a class with class-validator decorators, or name the field (@Query('days'))",
      );
    }
    const schema = inlineRefs(converter.toSchema(dto as Type<object>, label), label) as Schema;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      add(name, {
        place: param.place,
        schema: property,
        required: param.place === 'path' || required.has(name),
        source: `a field of the ${PLACE_NAMES[param.place]} (${(dto as Type<object>).name})`,
      });
    }
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
