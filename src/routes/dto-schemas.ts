import type { Type } from '@nestjs/common';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { inlineRefs } from './inline-refs.js';
import { mergeSchemas } from './merge-schemas.js';
import type { Schema } from './openapi-schema.js';
import { swaggerProperties } from './swagger-metadata.js';
import { swaggerSchema } from './swagger-schema.js';

/** Any class, as decorators see one. */
type AnyClass = abstract new (...args: never[]) => unknown;

/**
 * The inline schemas of the DTO classes of one route: what class-validator says of each (through
 * the converter `@McpTool()` inputs use) combined with what `@nestjs/swagger` says (`@ApiProperty()`
 * or its CLI plugin), when the application uses it. Without swagger metadata a class's schema is
 * its class-validator one, unchanged.
 */
export class DtoSchemas {
  constructor(
    private readonly converter: DtoJsonSchemaConverter,
    private readonly label: string,
    /** Inputs warn about a class without class-validator decorators (its fields would be refused); outputs do not. */
    private readonly role: 'input' | 'output' = 'input',
  ) {}

  /**
   * The object schema of `dto`, nested classes written in place.
   * @throws McpDefinitionError for a class that contains itself: it has no finite inline form.
   */
  of(dto: AnyClass, within: readonly AnyClass[] = []): Schema {
    if (within.includes(dto)) {
      throw new McpDefinitionError(
        `${this.label}: ${dto.name} contains itself, which an inline schema cannot describe`,
      );
    }
    const documented = swaggerProperties(dto);
    // A class only swagger describes is no mistake here: no warning about missing class-validator decorators.
    const warn = documented.size === 0 && this.role === 'input';
    const converted = this.converter.toSchema(dto as Type<object>, warn ? this.label : undefined);
    const validated = inlineRefs(converted, this.label) as Schema;
    if (documented.size === 0) return validated;
    const properties: Schema = {};
    const required: string[] = [];
    for (const [name, meta] of documented) {
      properties[name] = swaggerSchema(meta, (nested) => this.of(nested, [...within, dto]));
      if (meta.required !== false) required.push(name);
    }
    return mergeSchemas(validated, { type: 'object', properties, required });
  }
}
