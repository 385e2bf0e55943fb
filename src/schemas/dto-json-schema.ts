import { Logger, type Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';

const REF_PREFIX = '#/$defs/';

/** Any class: nested DTOs come from `@Type()` thunks, untyped. */
type DtoClass = abstract new (...args: never[]) => unknown;

/** The schema of a tool that takes no arguments (as the specification recommends). */
export const NO_ARGUMENTS_SCHEMA: JsonSchemaObject = Object.freeze({ type: 'object', additionalProperties: false });

/**
 * Converts class-validator DTOs to JSON Schema. Runs at bootstrap only: the schemas it returns are
 * advertised as they are on every `tools/list`.
 *
 * Arguments are validated with `forbidNonWhitelisted`, so every object schema says
 * `additionalProperties: false`: the advertised schema matches what the server accepts.
 * Nested DTOs (`@ValidateNested()` + `@Type()`) become `$defs`, each built from its own class:
 * two different classes that share a name get distinct definitions.
 */
export class DtoJsonSchemaConverter {
  private readonly logger = new Logger('McpSchemas');
  /** Per converter (one per application): tools sharing a DTO share its conversion. */
  private readonly converted = new WeakMap<Type<object>, JsonSchemaObject>();

  /**
   * The schema of `dto`, converted once per class; callers copy it before changing anything.
   * @param usedBy names the definition (`@McpTool() on Class.method`) in the warning about a DTO
   *   without class-validator decorators.
   */
  toSchema(dto: Type<object>, usedBy?: string): JsonSchemaObject {
    let schema = this.converted.get(dto);
    if (!schema) {
      schema = this.convert(dto);
      this.converted.set(dto, schema);
      if (usedBy !== undefined && !hasValidationMetadata(dto)) this.warnUndecorated(dto, usedBy);
    }
    return schema;
  }

  /**
   * A DTO without one class-validator decorator validates as an object with no allowed property:
   * with the whitelist mcp42 validates with, every argument would be refused as "should not exist".
   */
  private warnUndecorated(dto: Type<object>, usedBy: string): void {
    this.logger.warn(
      `${usedBy}: ${dto.name} has no class-validator decorators, so its schema allows no property and every ` +
        `argument is refused ("property … should not exist"). Decorate its properties (@IsString(), ` +
        '@IsOptional()…), or give a JSON Schema instead of the class.',
    );
  }

  private convert(dto: Type<object>): JsonSchemaObject {
    const names = new Map<DtoClass, string>();
    const defs: Record<string, Record<string, unknown>> = {};
    const root = closeObject({ ...this.describe(dto, names, defs), type: 'object' }) as JsonSchemaObject;
    return Object.keys(defs).length > 0 ? { ...root, $defs: defs } : root;
  }

  /** The schema of one class; nested classes are added to `defs` under names unique in this schema. */
  private describe(
    dto: DtoClass,
    names: Map<DtoClass, string>,
    defs: Record<string, Record<string, unknown>>,
  ): Record<string, unknown> {
    const schema = closeObject(
      targetConstructorToSchema(dto, {
        refPointerPrefix: REF_PREFIX,
        classTransformerMetadataStorage: defaultMetadataStorage,
      }) as Record<string, unknown>,
    );
    const properties = schema.properties as Record<string, unknown> | undefined;
    if (!properties) return schema;
    for (const property of Object.keys(properties)) {
      const nested = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction() as DtoClass | undefined;
      if (typeof nested !== 'function' || !hasRef(properties[property], nested.name)) continue;
      let name = names.get(nested);
      if (name === undefined) {
        name = uniqueName(nested.name, names);
        names.set(nested, name);
        defs[name] = {}; // reserved before recursing, so self-referencing DTOs terminate
        defs[name] = this.describe(nested, names, defs);
      }
      properties[property] = renameRef(properties[property], nested.name, name);
    }
    return schema;
  }
}

function closeObject(schema: Record<string, unknown>): Record<string, unknown> {
  const isObject = schema.type === 'object' || schema.properties !== undefined;
  return isObject && schema.additionalProperties === undefined ? { ...schema, additionalProperties: false } : schema;
}

function uniqueName(base: string, taken: Map<DtoClass, string>): string {
  const used = new Set(taken.values());
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  return name;
}

function hasRef(value: unknown, name: string): boolean {
  return JSON.stringify(value).includes(JSON.stringify(REF_PREFIX + name));
}

function renameRef(value: unknown, from: string, to: string): unknown {
  if (from === to) return value;
  return JSON.parse(
    JSON.stringify(value).replaceAll(JSON.stringify(REF_PREFIX + from), JSON.stringify(REF_PREFIX + to)),
  );
}

/** Whether class-validator knows any rule of `dto` (or of a class it extends). */
function hasValidationMetadata(dto: Type<object>): boolean {
  return getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).length > 0;
}
