/** A JSON Schema (or OpenAPI schema object) being read or built. */
export type Schema = Record<string, unknown>;

/** Keys whose values are schemas, by how they hold them. */
const SCHEMA_VALUED = new Set(['items', 'additionalProperties', 'not', 'contains']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** OpenAPI-only keywords with no meaning to a JSON Schema validator or a model. */
const DROPPED = new Set(['discriminator', 'xml', 'externalDocs', 'nullable', 'example']);

/**
 * An OpenAPI 3.0 schema object (what swagger decorators take) as the JSON Schema 2020-12 MCP
 * advertises: `example` becomes `examples`, `nullable` a `null` type, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` the numeric form. A part that holds a `$ref` becomes `{}`:
 * it points into a document (`components`) a tool's schema does not have.
 */
export function openApiSchema(value: Schema): Schema {
  if ('$ref' in value) return {};
  const schema: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    if (DROPPED.has(key) || child === undefined) continue;
    if (key === 'properties' && isRecord(child)) {
      schema.properties = Object.fromEntries(
        Object.entries(child).map(([name, property]) => [name, isRecord(property) ? openApiSchema(property) : {}]),
      );
    } else if (SCHEMA_VALUED.has(key) && isRecord(child)) {
      schema[key] = openApiSchema(child);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(child)) {
      schema[key] = child.map((item: unknown) => (isRecord(item) ? openApiSchema(item) : {}));
    } else {
      schema[key] = child;
    }
  }
  if (value.example !== undefined && schema.examples === undefined) schema.examples = [value.example];
  if (schema.examples !== undefined && !Array.isArray(schema.examples)) {
    // OpenAPI's named examples ({ name: { value } }): their values.
    schema.examples = Object.values(schema.examples as Record<string, unknown>).map((example) =>
      isRecord(example) && 'value' in example ? example.value : example,
    );
  }
  exclusiveBound(schema, 'exclusiveMinimum', 'minimum');
  exclusiveBound(schema, 'exclusiveMaximum', 'maximum');
  if (value.nullable === true && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

export function isRecord(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** OpenAPI 3.0's `exclusiveMinimum: true` beside `minimum: 1` is JSON Schema's `exclusiveMinimum: 1`. */
function exclusiveBound(
  schema: Schema,
  exclusive: 'exclusiveMinimum' | 'exclusiveMaximum',
  limit: 'minimum' | 'maximum',
): void {
  const flag = schema[exclusive];
  if (typeof flag !== 'boolean') return;
  Reflect.deleteProperty(schema, exclusive);
  const value = schema[limit];
  if (flag && typeof value === 'number') {
    schema[exclusive] = value;
    Reflect.deleteProperty(schema, limit);
  }
}
