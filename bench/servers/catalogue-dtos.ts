import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/**
 * Input DTOs of the tool catalogues of the tools/list benchmark: one string property, or about 40
 * properties with nested DTOs (`$defs`), enums, patterns and formats. DTOs rather than raw JSON
 * Schemas: Ajv compiles a raw schema at bootstrap, some 15 ms of CPU for one like ComplexArgs's, which
 * would make 1,000 tools take longer to start than the whole benchmark may run.
 */

export class SimpleArgs {
  @JSONSchema({ description: 'What the tool works on' })
  @IsString()
  text!: string;
}

const COUNTRIES = ['DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'AT', 'CH', 'PL', 'CZ', 'SE', 'NO', 'DK', 'FI', 'PT', 'IE'];
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'JPY'];
const PRIORITIES = ['lowest', 'low', 'normal', 'high', 'highest', 'urgent'];

export class Money {
  @JSONSchema({ description: 'Amount in the currency, cents included' })
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  amount!: number;

  @JSONSchema({ description: 'ISO 4217 code' })
  @IsIn(CURRENCIES)
  currency!: string;
}

export class Address {
  @IsString()
  @Length(1, 200)
  street!: string;

  @IsString()
  @Length(1, 100)
  city!: string;

  @IsOptional()
  @Matches(/^[0-9A-Z]{3,10}(-[0-9A-Z]{2,4})?$/)
  postalCode?: string;

  @IsIn(COUNTRIES)
  country!: string;
}

export class Contact {
  @IsString()
  @Length(1, 100)
  name!: string;

  @IsOptional()
  @IsEmail()
  email?: string;

  @IsOptional()
  @Matches(/^\+[1-9][0-9]{6,14}$/)
  phone?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Address)
  address?: Address;
}

export class LineItem {
  @JSONSchema({ description: 'Stock keeping unit' })
  @Matches(/^[A-Z]{3}-[0-9]{4,8}$/)
  sku!: string;

  @IsInt()
  @Min(1)
  @Max(1000)
  quantity!: number;

  @ValidateNested()
  @Type(() => Money)
  unitPrice!: Money;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  notes?: string;
}

export class DeliveryWindow {
  @IsISO8601()
  from!: string;

  @IsISO8601()
  to!: string;
}

/** Ten properties written out, thirty generated below (field00 to field29). */
export class ComplexArgs {
  @JSONSchema({ description: 'Idempotency key of the request' })
  @IsUUID()
  requestId!: string;

  @IsOptional()
  @IsISO8601()
  createdAt?: string;

  @IsOptional()
  @IsUrl()
  callbackUrl?: string;

  @ValidateNested()
  @Type(() => Contact)
  customer!: Contact;

  @IsOptional()
  @ValidateNested()
  @Type(() => Address)
  billingAddress?: Address;

  @IsOptional()
  @ValidateNested()
  @Type(() => Address)
  shippingAddress?: Address;

  @JSONSchema({ description: 'What is ordered', items: { $ref: '#/$defs/LineItem' } })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => LineItem)
  items!: LineItem[];

  @ValidateNested()
  @Type(() => Money)
  total!: Money;

  @IsOptional()
  @ValidateNested()
  @Type(() => DeliveryWindow)
  delivery?: DeliveryWindow;

  @IsOptional()
  @IsIn(PRIORITIES)
  priority?: string;
}

type FieldDecorator = (target: object, property: string) => void;

/** The shapes of the generated properties, in turn; each decorates `ComplexArgs.prototype[name]`. */
const FIELD_SHAPES: readonly ((name: string) => FieldDecorator[])[] = [
  (name) => [
    JSONSchema({ description: `Free-form label ${name}` }),
    IsString(),
    Length(1, 120),
    Matches(/^[A-Za-z][A-Za-z0-9 _.-]*$/),
  ],
  (name) => [JSONSchema({ description: `Counter ${name}` }), IsInt(), Min(0), Max(10_000)],
  (name) => [JSONSchema({ description: `Priority ${name}` }), IsIn(PRIORITIES)],
  (name) => [JSONSchema({ description: `Flag ${name}` }), IsBoolean()],
  (name) => [JSONSchema({ description: `Ratio ${name}, between 0 and 1` }), IsNumber(), Min(0), Max(1)],
  (name) => [
    JSONSchema({ description: `Tags ${name}`, items: { type: 'string', pattern: '^[a-z0-9-]{2,32}$' } }),
    IsArray(),
    ArrayMaxSize(16),
    Matches(/^[a-z0-9-]{2,32}$/, { each: true }),
  ],
];

for (let index = 0; index < 30; index++) {
  const name = `field${String(index).padStart(2, '0')}`;
  // The first three are required, the others optional, as in a typical request DTO.
  const decorators = [...(index < 3 ? [] : [IsOptional()]), ...FIELD_SHAPES[index % FIELD_SHAPES.length]!(name)];
  for (const decorate of decorators) decorate(ComplexArgs.prototype, name);
}
