import 'reflect-metadata';
import fc from 'fast-check';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  registerDecorator,
  validate,
  ValidateNested,
  ValidatorConstraint,
  Validate,
  type ValidationError,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { argumentsValidator, type ArgumentsCheck } from './arguments.validator.js';

// What `validateArguments` promises is class-validator's `validate()` with these options: the
// reference the checks below are held to, whatever the executor does to answer sooner.
const OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
};

function flattened(errors: readonly ValidationError[], prefix = ''): string[] {
  const problems: string[] = [];
  for (const error of errors) {
    const path = error.property === undefined ? prefix.slice(0, -1) || '(arguments)' : prefix + error.property;
    for (const message of Object.values(error.constraints ?? {})) problems.push(`${path}: ${message}`);
    if (error.children?.length) problems.push(...flattened(error.children, `${path}.`));
  }
  return problems;
}

async function reference(dto: new () => object, args: Record<string, unknown>): Promise<string[]> {
  return flattened(await validate(plainToInstance(dto, args), OPTIONS));
}

function problemsOf(check: ArgumentsCheck<object>): string[] {
  return check.ok ? [] : check.problems;
}

@ValidatorConstraint({ name: 'slowEven', async: true })
class SlowEven implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    return typeof value === 'number' && value % 2 === 0;
  }

  defaultMessage(): string {
    return 'must be even (checked later)';
  }
}

/** A constraint that answers with a promise without declaring itself async: `validateSync` would miss it. */
function IsShortLater(): PropertyDecorator {
  return (target, property) => {
    registerDecorator({
      name: 'isShortLater',
      target: target.constructor,
      propertyName: property as string,
      validator: {
        validate: (value: unknown) => Promise.resolve(typeof value === 'string' && value.length < 4),
        defaultMessage: () => 'must be short (checked later)',
      },
    });
  };
}

class Point {
  @IsInt()
  @Min(0)
  x!: number;

  @IsInt()
  @Max(10)
  y!: number;
}

class SyncArgs {
  @IsString()
  @MinLength(2)
  name!: string;

  @IsOptional()
  @IsInt()
  count?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => Point)
  at?: Point;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Point)
  path?: Point[];
}

class AsyncArgs {
  @Validate(SlowEven)
  even!: number;

  @IsOptional()
  @IsShortLater()
  code?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Point)
  at?: Point;
}

class Inner {
  @IsOptional()
  @Validate(SlowEven)
  even?: number;

  @IsString()
  label!: string;
}

class NestedAsyncArgs {
  @ValidateNested()
  @Type(() => Inner)
  inner!: Inner;
}

class BaseArgs {
  @IsString()
  id!: string;
}

class DerivedArgs extends BaseArgs {
  @IsOptional()
  @IsInt()
  size?: number;
}

const scalar = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.integer({ min: -3, max: 12 }),
  fc.constant(null),
  fc.boolean(),
  fc.constant(undefined),
);
const point = fc.oneof(fc.record({ x: scalar, y: scalar }, { requiredKeys: [] }), scalar);
const value = fc.oneof(scalar, point, fc.array(point, { maxLength: 3 }));
/** Arguments of every shape: the DTOs' keys (often), unknown keys (sometimes), any value for each. */
const args = fc.dictionary(
  fc.oneof(
    fc.constantFrom('name', 'count', 'at', 'path', 'even', 'code', 'inner', 'id', 'size', 'x', 'label'),
    fc.string({ maxLength: 4 }),
  ),
  fc.oneof(value, fc.record({ even: scalar, label: scalar }, { requiredKeys: [] })),
  { maxKeys: 5 },
);

describe('argumentsValidator: the same problems as class-validator’s validate()', () => {
  it.each([
    ['sync constraints, nested and arrays', SyncArgs],
    ['an async constraint and one that answers with a promise', AsyncArgs],
    ['an async constraint in a nested DTO', NestedAsyncArgs],
    ['inherited constraints', DerivedArgs],
  ])('%s', async (_, dto: new () => object) => {
    const check = argumentsValidator(dto);
    await fc.assert(
      fc.asyncProperty(args, async (given) => {
        expect(problemsOf(await check(structuredClone(given)))).toEqual(await reference(dto, structuredClone(given)));
      }),
      { numRuns: 300 },
    );
  });

  it('answers at once for a DTO whose constraints answer at once', () => {
    const check = argumentsValidator(SyncArgs);
    expect(check({ name: 'ok', at: { x: 1, y: 2 } })).toMatchObject({ ok: true });
    expect(check({ name: 'o', at: { x: -1, y: 2 } })).toEqual({
      ok: false,
      problems: ['name: name must be longer than or equal to 2 characters', 'at.x: x must not be less than 0'],
    });
  });

  it('waits for an async constraint, and for one that answers with a promise without saying so', async () => {
    const check = argumentsValidator(AsyncArgs);
    const pending = check({ even: 3, code: 'toolong' });
    expect(pending).toBeInstanceOf(Promise);
    expect(problemsOf(await pending)).toEqual([
      'even: must be even (checked later)',
      'code: must be short (checked later)',
    ]);
    expect(problemsOf(await check({ even: 4, code: 'ok' }))).toEqual([]);
  });

  it('waits for an async constraint of a nested DTO', async () => {
    const check = argumentsValidator(NestedAsyncArgs);
    const pending = check({ inner: { even: 1, label: 'a' } });
    expect(pending).toBeInstanceOf(Promise);
    expect(problemsOf(await pending)).toEqual(['inner.even: must be even (checked later)']);
  });

  it('sees constraints added to a class, or to an ancestor, after its first check', async () => {
    class LateBase {}
    class LateArgs extends LateBase {
      @IsOptional()
      @IsString()
      note?: string;
    }
    const check = argumentsValidator(LateArgs);
    expect(problemsOf(await check({ note: 'n', extra: 1 }))).toEqual(['extra: property extra should not exist']);
    IsInt()(LateBase.prototype, 'extra');
    expect(problemsOf(await check({ note: 'n', extra: 1 }))).toEqual([]);
    MinLength(2)(LateArgs.prototype, 'note');
    expect(problemsOf(await check({ note: 'n', extra: 'e' }))).toEqual(
      await reference(LateArgs, { note: 'n', extra: 'e' }),
    );
    expect(problemsOf(await check({ note: 'n', extra: 'e' }))).toEqual([
      'note: note must be longer than or equal to 2 characters',
      'extra: extra must be an integer number',
    ]);
  });
});
