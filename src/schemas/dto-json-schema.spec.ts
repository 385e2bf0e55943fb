import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { DtoJsonSchemaConverter, NO_ARGUMENTS_SCHEMA } from './dto-json-schema.js';
import { validateArguments } from './arguments.validator.js';

enum Unit {
  Celsius = 'c',
  Fahrenheit = 'f',
}

class CityArgs {
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  city!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(14)
  days?: number;

  @IsIn(['metric', 'imperial'])
  system!: string;

  @IsOptional()
  @IsEnum(Unit)
  unit?: Unit;

  @IsOptional()
  @IsBoolean()
  detailed?: boolean;
}

class GeoPoint {
  @IsNumber()
  @Min(-90)
  @Max(90)
  lat!: number;

  @IsNumber()
  lon!: number;
}

class RouteStop {
  @IsString()
  name!: string;

  @ValidateNested()
  @Type(() => GeoPoint)
  at!: GeoPoint;
}

class RouteArgs {
  @ValidateNested()
  @Type(() => GeoPoint)
  origin!: GeoPoint;

  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => RouteStop)
  stops!: RouteStop[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags?: string[];
}

/** Declared only so that the metadata storage holds a DTO no schema refers to. */
class UnrelatedArgs {
  @IsString()
  unrelated!: string;
}

class TreeNode {
  @IsString()
  label!: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => TreeNode)
  children?: TreeNode[];
}

class BaseArgs {
  @IsString()
  id!: string;
}

class ExtendedArgs extends BaseArgs {
  @IsInt()
  count!: number;
}

class NoPropertiesArgs {}

describe('NO_ARGUMENTS_SCHEMA', () => {
  it('is a closed, empty object schema', () => {
    expect(NO_ARGUMENTS_SCHEMA).toEqual({ type: 'object', additionalProperties: false });
  });

  it('is frozen, so no tool can change what others advertise', () => {
    expect(Object.isFrozen(NO_ARGUMENTS_SCHEMA)).toBe(true);
  });
});

describe('DtoJsonSchemaConverter', () => {
  it('converts a class once per converter: tools sharing a DTO share the conversion', () => {
    class SharedArgs {
      @IsString()
      city!: string;
    }
    const converter = new DtoJsonSchemaConverter();
    const first = converter.toSchema(SharedArgs);
    expect(converter.toSchema(SharedArgs)).toBe(first);
    expect(new DtoJsonSchemaConverter().toSchema(SharedArgs)).not.toBe(first);
    expect(new DtoJsonSchemaConverter().toSchema(SharedArgs)).toEqual(first);
  });

  let converter: DtoJsonSchemaConverter;

  beforeEach(() => {
    converter = new DtoJsonSchemaConverter();
  });

  it('gives types, constraints, enums and required properties of a flat DTO, closed to other properties', () => {
    expect(converter.toSchema(CityArgs)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, maxLength: 80 },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        system: { type: 'string', enum: ['metric', 'imperial'] },
        unit: { type: 'string', enum: ['c', 'f'] },
        detailed: { type: 'boolean' },
      },
      required: ['city', 'system'],
      additionalProperties: false,
    });
  });

  it('leaves optional properties out of required', () => {
    const schema = converter.toSchema(CityArgs);
    for (const optional of ['days', 'unit', 'detailed']) expect(schema.required).not.toContain(optional);
  });

  it('has no $defs when the DTO nests nothing', () => {
    expect(converter.toSchema(CityArgs)).not.toHaveProperty('$defs');
  });

  it('refers to nested DTOs through $defs, transitively, each closed to other properties', () => {
    const schema = converter.toSchema(RouteArgs);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        origin: { $ref: '#/$defs/GeoPoint' },
        stops: { type: 'array', minItems: 1, items: { $ref: '#/$defs/RouteStop' } },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['origin', 'stops'],
      additionalProperties: false,
      $defs: {
        GeoPoint: {
          type: 'object',
          properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { type: 'number' } },
          required: ['lat', 'lon'],
          additionalProperties: false,
        },
        RouteStop: {
          type: 'object',
          properties: { name: { type: 'string' }, at: { $ref: '#/$defs/GeoPoint' } },
          required: ['name', 'at'],
          additionalProperties: false,
        },
      },
    });
  });

  it('puts only the DTOs a schema refers to in its $defs', () => {
    const defs = Object.keys(converter.toSchema(RouteArgs).$defs as object);
    expect(defs.sort()).toEqual(['GeoPoint', 'RouteStop']);
    expect(defs).not.toContain(UnrelatedArgs.name);
  });

  it('handles a DTO that refers to itself', () => {
    const schema = converter.toSchema(TreeNode);
    expect(schema.properties).toEqual({
      label: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/$defs/TreeNode' } },
    });
    expect(Object.keys(schema.$defs as object)).toEqual(['TreeNode']);
  });

  it('includes inherited properties', () => {
    const schema = converter.toSchema(ExtendedArgs);
    expect(Object.keys(schema.properties as object).sort()).toEqual(['count', 'id']);
    expect([...(schema.required as string[])].sort()).toEqual(['count', 'id']);
  });

  it('gives the same schema from one converter used for many DTOs', () => {
    const first = converter.toSchema(RouteArgs);
    converter.toSchema(CityArgs);
    expect(converter.toSchema(RouteArgs)).toEqual(first);
    expect(new DtoJsonSchemaConverter().toSchema(RouteArgs)).toEqual(first);
  });

  it('closes a DTO without decorated properties too, as the server accepts no property for it', () => {
    // The class TSDoc: "every object schema says additionalProperties: false".
    expect(converter.toSchema(NoPropertiesArgs)).toEqual({ type: 'object', additionalProperties: false });
  });

  it('keeps apart nested DTOs of different shape that share a class name', async () => {
    // Two modules may each declare their own `Address` DTO; each tool must advertise its own.
    const shippingArgs = (() => {
      class Address {
        @IsString()
        street!: string;
      }
      class ShippingArgs {
        @ValidateNested()
        @Type(() => Address)
        address!: Address;
      }
      return ShippingArgs;
    })();
    const billingArgs = (() => {
      class Address {
        @IsInt()
        zip!: number;
      }
      class BillingArgs {
        @ValidateNested()
        @Type(() => Address)
        address!: Address;
      }
      return BillingArgs;
    })();

    const shipping = converter.toSchema(shippingArgs);
    const billing = converter.toSchema(billingArgs);
    const nestedOf = (schema: Record<string, unknown>): Record<string, unknown> => {
      const ref = (schema.properties as { address: { $ref: string } }).address.$ref;
      return (schema.$defs as Record<string, Record<string, unknown>>)[ref.slice('#/$defs/'.length)]!;
    };
    expect(nestedOf(shipping)).toMatchObject({ properties: { street: { type: 'string' } }, required: ['street'] });
    expect(nestedOf(shipping).properties).not.toHaveProperty('zip');
    expect(nestedOf(billing)).toMatchObject({ properties: { zip: { type: 'integer' } }, required: ['zip'] });
    expect(nestedOf(billing).properties).not.toHaveProperty('street');
    // What the schema advertises is what the validator accepts.
    expect((await validateArguments(shippingArgs, { address: { street: 'Main St' } })).ok).toBe(true);
  });

  it('includes properties inherited from a base DTO', () => {
    class BaseArgs {
      @IsString()
      id!: string;
    }
    class DerivedArgs extends BaseArgs {
      @IsInt()
      count!: number;
    }
    const schema = converter.toSchema(DerivedArgs);
    expect(Object.keys(schema.properties as object).sort()).toEqual(['count', 'id']);
    expect((schema.required as string[]).sort()).toEqual(['count', 'id']);
  });

  it('terminates on a self-referencing DTO, referring to its own definition', () => {
    class TreeNode {
      @IsString()
      label!: string;

      @IsOptional()
      @IsArray()
      @ValidateNested({ each: true })
      @Type(() => TreeNode)
      children?: TreeNode[];
    }
    class TreeArgs {
      @ValidateNested()
      @Type(() => TreeNode)
      root!: TreeNode;
    }
    const schema = converter.toSchema(TreeArgs);
    const defs = schema.$defs as Record<string, { properties: Record<string, { items?: { $ref?: string } }> }>;
    expect(Object.keys(defs)).toEqual(['TreeNode']);
    expect(defs.TreeNode!.properties.children!.items!.$ref).toBe('#/$defs/TreeNode');
  });
});
