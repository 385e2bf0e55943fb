import type { Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';

const REF_PREFIX = '#/$defs/';

/** The schema of a tool that takes no arguments (as the specification recommends). */
export const NO_ARGUMENTS_SCHEMA: JsonSchemaObject = Object.freeze({ type: 'object', additionalProperties: false });

/**
 * Converts class-validator DTOs to JSON Schema. Runs at bootstrap only: the schemas it returns are
 * advertised as they are on every `tools/list`.
 *
 * Arguments are validated with `forbidNonWhitelisted`, so every object schema says
 * `additionalProperties: false`: the advertised schema matches what the server accepts.
 */
export class DtoJsonSchemaConverter {
  private allSchemas: Record<string, Record<string, unknown>> | undefined;

  toSchema(dto: Type<object>): JsonSchemaObject {
    const root = closeObjects(this.convert(dto));
    const defs: Record<string, unknown> = {};
    const pending = collectRefs(root);
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (name in defs) continue;
      const def = this.definitions()[name];
      if (!def) continue;
      defs[name] = closeObjects(def);
      pending.push(...collectRefs(def));
    }
    const schema = { ...root, type: 'object' as const };
    return Object.keys(defs).length > 0 ? { ...schema, $defs: defs } : schema;
  }

  private convert(dto: Type<object>): Record<string, unknown> {
    return targetConstructorToSchema(dto, {
      refPointerPrefix: REF_PREFIX,
      classTransformerMetadataStorage: defaultMetadataStorage,
    }) as Record<string, unknown>;
  }

  /** Schemas of every nested DTO, computed once and only when a DTO refers to another. */
  private definitions(): Record<string, Record<string, unknown>> {
    this.allSchemas ??= validationMetadatasToSchemas({
      refPointerPrefix: REF_PREFIX,
      classTransformerMetadataStorage: defaultMetadataStorage,
    }) as Record<string, Record<string, unknown>>;
    return this.allSchemas;
  }
}

function closeObjects(schema: Record<string, unknown>): Record<string, unknown> {
  return schema.properties !== undefined && schema.additionalProperties === undefined
    ? { ...schema, additionalProperties: false }
    : schema;
}

function collectRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(REF_PREFIX)) {
        found.push(child.slice(REF_PREFIX.length));
      } else {
        collectRefs(child, found);
      }
    }
  }
  return found;
}
