import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';

const DEFS_PREFIX = '#/$defs/';

/**
 * The schema with every `$ref` into its own `$defs` replaced by the definition, and `$defs` gone:
 * many clients cannot resolve references (a flattened tool input is read field by field).
 * @throws McpDefinitionError (`label` first) for a DTO that contains itself: it has no finite inline form.
 */
export function inlineRefs(schema: JsonSchemaObject, label: string): JsonSchemaObject {
  const { $defs, ...root } = schema as JsonSchemaObject & { $defs?: Record<string, unknown> };
  const defs = $defs ?? {};
  const inline = (value: unknown, path: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, path));
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const ref = record.$ref;
    if (typeof ref === 'string' && ref.startsWith(DEFS_PREFIX)) {
      const name = ref.slice(DEFS_PREFIX.length);
      if (path.includes(name)) {
        throw new McpDefinitionError(
          `${label}: ${name} contains itself, which a route-backed tool's input cannot describe`,
        );
      }
      const { $ref: _ref, ...siblings } = record;
      return { ...(inline(defs[name], [...path, name]) as object), ...(inline(siblings, path) as object) };
    }
    return Object.fromEntries(Object.entries(record).map(([key, child]) => [key, inline(child, path)]));
  };
  return inline(root, []) as JsonSchemaObject;
}
