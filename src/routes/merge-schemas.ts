import { isRecord, type Schema } from './openapi-schema.js';

/** What documents a value rather than constrains it: swagger's say wins (it is written for readers). */
const DESCRIPTIVE = new Set(['description', 'title', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * One schema from what class-validator says of a DTO (`validated`: what the route's
 * `ValidationPipe` enforces) and what swagger says of it (`documented`). Class-validator decides
 * the type, whether a property is required and every constraint it declares; swagger adds the
 * constraints and properties class-validator does not declare, and its descriptions, titles,
 * examples and defaults win. Nested objects and array items combine the same way.
 */
export function mergeSchemas(validated: Schema, documented: Schema): Schema {
  const merged: Schema = { ...documented, ...validated };
  for (const key of DESCRIPTIVE) if (documented[key] !== undefined) merged[key] = documented[key];
  if (isRecord(validated.items) && isRecord(documented.items)) {
    merged.items = mergeSchemas(validated.items, documented.items);
  }
  if (isRecord(documented.properties)) {
    const validatedProperties = isRecord(validated.properties) ? validated.properties : {};
    const properties: Schema = { ...validatedProperties };
    for (const [name, property] of Object.entries(documented.properties)) {
      const known = validatedProperties[name];
      properties[name] = isRecord(known) && isRecord(property) ? mergeSchemas(known, property) : property;
    }
    merged.properties = properties;
    // Class-validator says which of its properties are required; swagger, for the ones only it declares.
    const required = new Set(Array.isArray(validated.required) ? (validated.required as string[]) : []);
    for (const name of Array.isArray(documented.required) ? (documented.required as string[]) : []) {
      if (!(name in validatedProperties)) required.add(name);
    }
    if (required.size > 0) merged.required = [...required];
    else delete merged.required;
  }
  return merged;
}

/** The schema with every object left open: a documented response may carry more than its documentation says. */
export function openObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openObjects);
  if (!isRecord(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, key === 'enum' || key === 'const' ? value : openObjects(value)]),
  );
}
