import 'reflect-metadata';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional, DECORATORS } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { SWAGGER_METADATA } from '../mcp.constants.js';
import { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { thrownBy } from '../../test/utils/thrown.js';
import { DtoSchemas } from './dto-schemas.js';
import { swaggerSchema } from './swagger-schema.js';

enum Units {
  Metric = 'metric',
  Imperial = 'imperial',
}

class Place {
  @ApiProperty({ description: 'City name', example: 'Lisbon', minLength: 1, maxLength: 100 })
  city!: string;

  @ApiPropertyOptional({ enum: Units, description: 'Unit system' })
  units?: Units;
}

class Day {
  @ApiProperty({ type: 'integer', minimum: 1 })
  day!: number;

  @ApiProperty({ type: Date, nullable: true })
  at!: Date | null;
}

class Forecast {
  @ApiProperty()
  place!: Place;

  @ApiProperty({ type: [Day], maxItems: 7 })
  days!: Day[];

  @ApiProperty({ type: () => Place, isArray: true, required: false })
  nearby?: Place[];

  @ApiHideProperty()
  secret?: string;
}

/** class-validator and swagger on one class: the validator's constraints, swagger's descriptions. */
class Query {
  @ApiPropertyOptional({ description: 'Days, 1 to 7', default: 3, maximum: 10, example: 5 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(7)
  days?: number;

  @ApiProperty({ description: 'Free text', pattern: '^[a-z]+$' })
  @IsString()
  q!: string;

  @ApiProperty({ description: 'Known only to swagger', type: Boolean })
  verbose!: boolean;
}

class Loop {
  @ApiProperty({ type: () => Loop })
  next!: Loop;
}

const dtos = (): DtoSchemas => new DtoSchemas(new DtoJsonSchemaConverter(), 'label');

describe('swagger metadata', () => {
  it("reads swagger's own reflect keys", () => {
    expect(SWAGGER_METADATA).toMatchObject({
      operation: DECORATORS.API_OPERATION,
      responses: DECORATORS.API_RESPONSE,
      parameters: DECORATORS.API_PARAMETERS,
      modelProperties: DECORATORS.API_MODEL_PROPERTIES,
      modelPropertiesArray: DECORATORS.API_MODEL_PROPERTIES_ARRAY,
      excludeEndpoint: DECORATORS.API_EXCLUDE_ENDPOINT,
    });
  });

  it('describes @ApiProperty() classes inline: types, enums, examples, nullable, arrays of classes', () => {
    expect(dtos().of(Forecast)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        place: {
          type: 'object',
          additionalProperties: false,
          properties: {
            city: { type: 'string', description: 'City name', examples: ['Lisbon'], minLength: 1, maxLength: 100 },
            units: { type: 'string', enum: ['metric', 'imperial'], description: 'Unit system' },
          },
          required: ['city'],
        },
        days: {
          type: 'array',
          maxItems: 7,
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              day: { type: 'integer', minimum: 1 },
              at: { type: ['string', 'null'], format: 'date-time' },
            },
            required: ['day', 'at'],
          },
        },
        nearby: {
          type: 'array',
          items: expect.objectContaining({ properties: expect.objectContaining({ city: expect.any(Object) }) }),
        },
      },
      required: ['place', 'days'],
    });
  });

  it("combines class-validator and swagger: the validator's type, presence and constraints; swagger's words", () => {
    expect(dtos().of(Query)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        days: { type: 'integer', minimum: 1, maximum: 7, description: 'Days, 1 to 7', default: 3, examples: [5] },
        q: { type: 'string', description: 'Free text', pattern: '^[a-z]+$' },
        verbose: { type: 'boolean', description: 'Known only to swagger' },
      },
      required: ['q', 'verbose'],
    });
  });

  it('refuses a class that contains itself', () => {
    const error = thrownBy(() => dtos().of(Loop));
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toContain('Loop contains itself');
  });

  it('turns OpenAPI 3.0 keywords into JSON Schema and drops references it cannot resolve', () => {
    expect(
      swaggerSchema(
        { type: Number, minimum: 0, exclusiveMinimum: true, schema: { $ref: '#/components/schemas/X' } },
        () => ({}),
      ),
    ).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(swaggerSchema({ enum: [1, 2], isArray: true, description: 'Ids' }, () => ({}))).toEqual({
      type: 'array',
      description: 'Ids',
      items: { type: 'number', enum: [1, 2] },
    });
  });
});
