import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Max, Min, MinLength, ValidateNested } from 'class-validator';
import { validateArguments, type ArgumentsCheck } from './arguments.validator.js';

class Coordinates {
  @IsInt()
  @Min(-90)
  @Max(90)
  lat!: number;

  @IsInt()
  lon!: number;
}

class Waypoint {
  @IsString()
  @MinLength(1)
  name!: string;

  @ValidateNested()
  @Type(() => Coordinates)
  at!: Coordinates;
}

class TripArgs {
  @IsString()
  @MinLength(1)
  city!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(14)
  days?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => Coordinates)
  center?: Coordinates;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Waypoint)
  stops?: Waypoint[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags?: string[];

  label(): string {
    return `${this.city} (${this.days ?? 1} days)`;
  }
}

class NoPropertiesArgs {}

function problemsOf<T>(check: ArgumentsCheck<T>): string[] {
  if (check.ok) throw new Error('expected the arguments to be refused');
  return check.problems;
}

function valueOf<T>(check: ArgumentsCheck<T>): T {
  if (!check.ok) throw new Error(`expected the arguments to be accepted: ${check.problems.join('; ')}`);
  return check.value;
}

describe('validateArguments', () => {
  it('accepts valid arguments and returns an instance of the DTO', async () => {
    const value = valueOf(await validateArguments(TripArgs, { city: 'Oslo', days: 3 }));
    expect(value).toBeInstanceOf(TripArgs);
    expect(value.label()).toBe('Oslo (3 days)');
  });

  it('turns nested objects and arrays of objects into instances of their DTOs', async () => {
    const value = valueOf(
      await validateArguments(TripArgs, {
        city: 'Oslo',
        center: { lat: 59, lon: 10 },
        stops: [{ name: 'Bergen', at: { lat: 60, lon: 5 } }],
        tags: ['fjord'],
      }),
    );
    expect(value.center).toBeInstanceOf(Coordinates);
    expect(value.stops![0]).toBeInstanceOf(Waypoint);
    expect(value.stops![0]!.at).toBeInstanceOf(Coordinates);
    expect(value.tags).toEqual(['fjord']);
  });

  it('does not convert types implicitly', async () => {
    expect(problemsOf(await validateArguments(TripArgs, { city: 'Oslo', days: '3' }))).toEqual([
      expect.stringMatching(/^days: /),
      expect.stringMatching(/^days: /),
      expect.stringMatching(/^days: /),
    ]);
  });

  it('names each failing property with each failing constraint', async () => {
    const problems = problemsOf(await validateArguments(TripArgs, { city: '', days: 20 }));
    expect(problems).toEqual([
      'city: city must be longer than or equal to 1 characters',
      'days: days must not be greater than 14',
    ]);
  });

  it('reports a missing required property', async () => {
    const problems = problemsOf(await validateArguments(TripArgs, {}));
    expect(problems).toContain('city: city must be a string');
    expect(problems.every((problem) => problem.startsWith('city: '))).toBe(true);
  });

  it('refuses unknown properties instead of dropping them silently', async () => {
    const problems = problemsOf(await validateArguments(TripArgs, { city: 'Oslo', cty: 'Oslo', extra: 1 }));
    expect(problems).toEqual(['cty: property cty should not exist', 'extra: property extra should not exist']);
  });

  it('gives nested problems with dotted paths', async () => {
    const problems = problemsOf(
      await validateArguments(TripArgs, { city: 'Oslo', center: { lat: 100, lon: 10, alt: 3 } }),
    );
    expect([...problems].sort()).toEqual([
      'center.alt: property alt should not exist',
      'center.lat: lat must not be greater than 90',
    ]);
  });

  it('gives problems inside arrays with the index in the path', async () => {
    const problems = problemsOf(
      await validateArguments(TripArgs, {
        city: 'Oslo',
        stops: [
          { name: 'Bergen', at: { lat: 60, lon: 5 } },
          { name: '', at: { lat: 60, lon: 'x' } },
        ],
      }),
    );
    expect(problems).toEqual([
      'stops.1.name: name must be longer than or equal to 1 characters',
      'stops.1.at.lon: lon must be an integer number',
    ]);
  });

  it('checks each element of an array of primitives', async () => {
    const problems = problemsOf(await validateArguments(TripArgs, { city: 'Oslo', tags: ['ok', 3] }));
    expect(problems).toEqual(['tags: each value in tags must be a string']);
  });

  it('refuses a non-object where a nested DTO is expected', async () => {
    const problems = problemsOf(await validateArguments(TripArgs, { city: 'Oslo', center: 'north' }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^center: /);
  });

  it('does not echo the values it refuses', async () => {
    const problems = problemsOf(await validateArguments(TripArgs, { city: 'secret-token-123', days: 99 }));
    expect(problems.join('\n')).not.toContain('99');
    const unknown = problemsOf(await validateArguments(TripArgs, { city: 'Oslo', password: 'hunter2' }));
    expect(unknown.join('\n')).not.toContain('hunter2');
  });

  it('accepts {} for a DTO without decorated properties, as its advertised schema allows', async () => {
    // Its schema is `{ type: 'object' }`; the validator should accept what the schema advertises.
    expect((await validateArguments(NoPropertiesArgs, {})).ok).toBe(true);
  });

  it('names the offending property, never "undefined", when a DTO without decorated properties gets one', async () => {
    const problems = problemsOf(await validateArguments(NoPropertiesArgs, { surprise: 1 }));
    for (const problem of problems) expect(problem).not.toMatch(/^undefined/);
    expect(problems.some((problem) => problem.startsWith('surprise: '))).toBe(true);
  });
});

describe('validateArguments: keys class-transformer drops', () => {
  /** Arguments as JSON.parse builds them from a client's text: "__proto__" is then an own key. */
  const fromJson = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
  const hostile = '{"polluted":"yes","prototype":{"polluted":"yes"}}';

  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'label'])(
    'refuses a %j key next to valid ones, naming it',
    async (key) => {
      const args = fromJson(`{"city":"Oslo","days":2,${JSON.stringify(key)}:${hostile}}`);
      expect(Object.keys(args)).toContain(key);
      expect(problemsOf(await validateArguments(TripArgs, args))).toEqual([`${key}: property ${key} should not exist`]);
    },
  );

  it('lists a dropped key after the validator’s own problems', async () => {
    const args = fromJson(`{"city":"","extra":1,"constructor":${hostile}}`);
    const problems = problemsOf(await validateArguments(TripArgs, args));
    expect(problems).toHaveLength(3);
    expect(problems.at(-1)).toBe('constructor: property constructor should not exist');
    expect(problems.slice(0, -1).sort()).toEqual([
      'city: city must be longer than or equal to 1 characters',
      'extra: property extra should not exist',
    ]);
  });

  it('refuses every dropped key, each once', async () => {
    const args = fromJson(`{"city":"Oslo","__proto__":${hostile},"toString":"x","hasOwnProperty":1}`);
    expect([...problemsOf(await validateArguments(TripArgs, args))].sort()).toEqual([
      '__proto__: property __proto__ should not exist',
      'hasOwnProperty: property hasOwnProperty should not exist',
      'toString: property toString should not exist',
    ]);
  });

  it('refuses them on a DTO without decorated properties too', async () => {
    const args = fromJson(`{"constructor":${hostile}}`);
    expect(problemsOf(await validateArguments(NoPropertiesArgs, args))).toContain(
      'constructor: property constructor should not exist',
    );
  });

  it('leaves the instance it returns, and its class, untouched by such keys when they are refused', async () => {
    const args = fromJson(`{"city":"Oslo","constructor":${hostile}}`);
    await validateArguments(TripArgs, args);
    expect((TripArgs as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect((TripArgs.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(valueOf(await validateArguments(TripArgs, { city: 'Oslo' })).label()).toBe('Oslo (1 days)');
  });
});
