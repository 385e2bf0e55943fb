import 'reflect-metadata';
import { Expose, plainToInstance, Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { dtoInstantiator } from './dto-instance.js';

class PlainArgs {
  @IsString()
  city!: string;

  @IsOptional()
  @IsInt()
  days = 1;

  @IsOptional()
  extra?: unknown;

  get label(): string {
    return `${this.city} (${this.days})`;
  }

  describe(): string {
    return this.label;
  }
}

class ChildOfPlain extends PlainArgs {
  @IsOptional()
  @IsString()
  note?: string;
}

class Nested {
  @IsInt()
  n!: number;
}

class TypedArgs {
  @Type(() => Nested)
  at!: Nested;
}

class TransformedArgs {
  @Transform(({ value }: { value: unknown }) => String(value).toUpperCase())
  city!: string;
}

class ExposedParent {
  @Expose({ name: 'town' })
  city!: string;
}

class ChildOfExposed extends ExposedParent {}

/** A JSON body's arguments: own `__proto__` keys included, as JSON.parse makes them. */
const parsed = (json: string): Record<string, unknown> => JSON.parse(json) as Record<string, unknown>;

const SAMPLES = [
  '{"city":"Oslo"}',
  '{"city":"Oslo","days":3}',
  '{"city":"Oslo","extra":{"a":[1,{"b":null}],"toString":"x","__proto__":{"polluted":true}}}',
  '{"city":"Oslo","extra":[[1,2],{"c":"d"}]}',
  '{"city":"Oslo","label":"forged","describe":"forged","__proto__":{"polluted":true},"constructor":"x"}',
  '{"city":"Oslo","hasOwnProperty":1,"toString":2,"valueOf":3}',
  '{"note":"n","city":"Oslo","days":null}',
];

function attempt<T>(make: () => T): { failed: true } | { failed: false; value: T } {
  try {
    return { failed: false, value: make() };
  } catch {
    return { failed: true };
  }
}

describe('dtoInstantiator', () => {
  it.each([PlainArgs, ChildOfPlain])(
    'builds a DTO without class-transformer metadata (%p) exactly as plainToInstance does',
    (dto) => {
      const instantiate = dtoInstantiator(dto);
      for (const json of SAMPLES) {
        const args = parsed(json);
        const made = attempt(() => instantiate(args));
        const transformed = attempt(() => plainToInstance(dto, parsed(json)));
        // Both refuse alike what cannot be set (a getter the DTO inherits, in strict mode).
        expect(made.failed).toBe(transformed.failed);
        if (made.failed || transformed.failed) continue;
        const { instance, dropped } = made.value;
        const expected = transformed.value;
        expect(instance).toBeInstanceOf(dto);
        expect(instance).toEqual(expected);
        expect(Object.keys(instance)).toEqual(Object.keys(expected));
        expect(Object.getPrototypeOf(instance)).toBe(dto.prototype);
        expect(dropped).toEqual(Object.keys(args).filter((key) => !Object.hasOwn(expected, key)));
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    },
  );

  it('copies nested objects and arrays rather than sharing them with the arguments', () => {
    const args = parsed('{"city":"Oslo","extra":{"list":[{"x":1}]}}');
    const { instance } = dtoInstantiator(PlainArgs)(args);
    expect(instance.extra).toEqual(args.extra);
    expect(instance.extra).not.toBe(args.extra);
    expect((instance.extra as { list: unknown[] }).list[0]).not.toBe((args.extra as { list: unknown[] }).list[0]);
  });

  it.each([
    [TypedArgs, '{"at":{"n":1}}'],
    [TransformedArgs, '{"city":"oslo"}'],
    [ChildOfExposed, '{"town":"Oslo"}'],
  ])('leaves a DTO with class-transformer metadata (%p) to plainToInstance', (dto, json) => {
    const { instance } = dtoInstantiator(dto as new () => object)(parsed(json));
    expect(instance).toEqual(plainToInstance(dto as new () => object, parsed(json)));
  });

  it('applies the metadata (a nested @Type, a @Transform, an inherited @Expose name)', () => {
    expect(dtoInstantiator(TypedArgs)(parsed('{"at":{"n":1}}')).instance.at).toBeInstanceOf(Nested);
    expect(dtoInstantiator(TransformedArgs)(parsed('{"city":"oslo"}')).instance.city).toBe('OSLO');
    expect(dtoInstantiator(ChildOfExposed)(parsed('{"town":"Oslo"}')).instance.city).toBe('Oslo');
  });
});
