import { Injectable } from '@nestjs/common';
import { DtoJsonSchemaConverter } from './dto-json-schema.js';
import { JsonSchemaValidatorFactory } from './json-schema.validator.js';

/**
 * The JSON Schema machinery of one application, shared by tools, resource templates, prompts and
 * elicitation: DTOs converted once per class, validators compiled once per distinct schema.
 * @internal
 */
@Injectable()
export class Schemas {
  readonly converter = new DtoJsonSchemaConverter();
  readonly validators = new JsonSchemaValidatorFactory();
}
