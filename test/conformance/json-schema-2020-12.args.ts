import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/**
 * The address of json-schema-2020-12's tool. The scenario looks for `$defs.address`, and a nested
 * DTO's definition is named after its class, hence the lower-case class name.
 */
export class address {
  @IsOptional()
  @IsString()
  street?: string;

  @IsOptional()
  @IsString()
  city?: string;
}

/** Arguments of `json_schema_2020_12_tool`: a DTO whose schema declares the 2020-12 dialect. */
// The function form: openapi3-ts's SchemaObject type has no `$schema` key.
@JSONSchema((schema) => ({ ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' }) as typeof schema)
export class JsonSchema202012Args {
  @IsOptional()
  @IsString()
  name?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => address)
  address?: address;
}
