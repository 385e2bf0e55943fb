import { isRecord, openApiSchema, type Schema } from './openapi-schema.js';
import type { SwaggerMeta } from './swagger-metadata.js';

/** Any class, as decorators see one. */
type AnyClass = abstract new (...args: never[]) => unknown;

/** Describes a class met inside swagger metadata (a nested DTO), inline. */
export type ClassSchemaOf = (dto: AnyClass) => Schema;

/** Swagger's own option keys: read here, never copied into the schema as they are. */
const SWAGGER_KEYS = new Set([
  'type',
  'isArray',
  'required',
  'name',
  'in',
  'enum',
  'enumName',
  'enumSchema',
  'schema',
  'selfRequired',
  'link',
  'explode',
  'style',
  'allowEmptyValue',
  'allowReserved',
  'content',
  'status',
  'headers',
  'links',
]);

/** What describes each item of an array rather than the array. */
const ITEM_KEYS = new Set([
  'type',
  'format',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * The JSON Schema of one swagger description: an `@ApiProperty()`, `@ApiParam()`, `@ApiQuery()`,
 * `@ApiBody()` or `@ApiResponse()`. Its `type` may be a constructor, a class (described inline by
 * `classSchema`), a lazy `() => Class`, a type name or `[Class]`; `isArray` and enum arrays make an
 * array whose items carry the type.
 */
export function swaggerSchema(meta: SwaggerMeta, classSchema: ClassSchemaOf): Schema {
  let type = meta.type;
  let isArray = meta.isArray === true;
  if (isLazyType(type)) type = (type as () => unknown)();
  if (Array.isArray(type)) {
    isArray = true;
    type = type[0] as unknown;
    if (isLazyType(type)) type = (type as () => unknown)();
  }
  const own = Object.fromEntries(Object.entries(meta).filter(([key]) => !SWAGGER_KEYS.has(key)));
  const nested = isRecord(meta.schema) ? openApiSchema(meta.schema) : {};
  const schema: Schema = { ...typeSchema(type, classSchema), ...nested, ...openApiSchema(own) };
  const values = enumValues(meta.enum);
  if (values !== undefined) {
    schema.enum = values;
    schema.type ??= enumType(values);
  }
  // The type comes from `type`, not from the keywords `openApiSchema` read: `nullable` is applied here.
  if (meta.nullable === true && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  if (!isArray || schema.type === 'array') return schema;
  const items: Schema = {};
  const array: Schema = { type: 'array' };
  for (const [key, value] of Object.entries(schema)) (ITEM_KEYS.has(key) ? items : array)[key] = value;
  return { ...array, items };
}

/** The schema a swagger `type` names. */
function typeSchema(type: unknown, classSchema: ClassSchemaOf): Schema {
  if (type === String) return { type: 'string' };
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  if (type === Date) return { type: 'string', format: 'date-time' };
  if (type === Object) return { type: 'object' };
  if (type === Array) return { type: 'array' };
  if (type === 'file') return { type: 'string', format: 'binary' };
  if (typeof type === 'string') return TYPE_NAMES.has(type) ? { type } : {};
  if (typeof type === 'function' && type.prototype !== undefined) return classSchema(type as AnyClass);
  return {};
}

/** Swagger's test for `type: () => Class`: an arrow function, which has no prototype. */
function isLazyType(type: unknown): boolean {
  return typeof type === 'function' && (type.name === 'type' || type.prototype === undefined);
}

/** An enum's values: given as a list, a TypeScript enum (without numeric reverse keys) or a thunk of either. */
function enumValues(given: unknown): unknown[] | undefined {
  const value = typeof given === 'function' ? (given as () => unknown)() : given;
  if (Array.isArray(value)) return value as unknown[];
  if (!isRecord(value)) return undefined;
  const numeric = new Set(
    Object.values(value)
      .filter((item) => typeof item === 'number')
      .map(String),
  );
  return Object.keys(value)
    .filter((key) => !numeric.has(key))
    .map((key) => value[key]);
}

function enumType(values: readonly unknown[]): string {
  if (values.some((value) => typeof value === 'string')) return 'string';
  return values.some((value) => typeof value === 'boolean') ? 'boolean' : 'number';
}
