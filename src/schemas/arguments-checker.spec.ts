import 'reflect-metadata';
import { jest } from '@jest/globals';
import { IsInt, IsString, Min } from 'class-validator';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import { JsonSchemaValidatorFactory } from './json-schema.validator.js';
import { argumentsCheckerFor } from './arguments-checker.js';
import { thrownBy } from '../../test/utils/thrown.js';

class CityArgs {
  @IsString()
  city!: string;

  @IsInt()
  @Min(1)
  days!: number;
}

const OWNER = 'WeatherTools.forecast';

const CITY_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
  additionalProperties: false,
};

// One factory, as the registry shares one: each holds Ajv instances that are costly to create.
const validators = new JsonSchemaValidatorFactory();

afterEach(() => {
  jest.restoreAllMocks();
});

describe('argumentsCheckerFor', () => {
  describe('without input', () => {
    const check = argumentsCheckerFor(undefined, validators, OWNER);

    it('accepts an empty object, as it is', async () => {
      const raw = {};
      const result = await check(raw);
      expect(result).toEqual({ ok: true, value: {} });
      expect(result.ok && result.value).toBe(raw);
    });

    it('refuses every property, one problem each', async () => {
      expect(await check({ city: 'Zürich', days: 2 })).toEqual({
        ok: false,
        problems: ['city: the tool takes no arguments', 'days: the tool takes no arguments'],
      });
    });
  });

  describe('with a DTO', () => {
    const check = argumentsCheckerFor(CityArgs, validators, OWNER);

    it('transforms valid arguments into an instance of the DTO', async () => {
      const result = await check({ city: 'Bern', days: 3 });
      expect(result.ok).toBe(true);
      const value = result.ok ? result.value : undefined;
      expect(value).toBeInstanceOf(CityArgs);
      expect(value).toEqual(Object.assign(new CityArgs(), { city: 'Bern', days: 3 }));
    });

    it('lists what class-validator refuses, unknown properties included', async () => {
      const result = await check({ city: 7, days: 0, extra: true });
      expect(result.ok).toBe(false);
      const problems = result.ok ? [] : result.problems;
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^city: /),
          expect.stringMatching(/^days: /),
          'extra: property extra should not exist',
        ]),
      );
    });

    it('compiles no JSON Schema', () => {
      const compile = jest.spyOn(validators, 'compile');
      argumentsCheckerFor(CityArgs, validators, OWNER);
      expect(compile).not.toHaveBeenCalled();
    });
  });

  describe('with a raw JSON Schema', () => {
    it('compiles the schema once, when the checker is built, however many calls it checks', async () => {
      const compile = jest.spyOn(validators, 'compile');
      const check = argumentsCheckerFor(CITY_SCHEMA, validators, OWNER);
      expect(compile).toHaveBeenCalledTimes(1);
      expect(compile).toHaveBeenCalledWith(CITY_SCHEMA);
      await check({ city: 'Bern' });
      await check({ city: '' });
      await check({ city: 'Basel', days: 2 });
      expect(compile).toHaveBeenCalledTimes(1);
    });

    it('passes valid arguments through as the very object received (no transformation)', async () => {
      const check = argumentsCheckerFor(CITY_SCHEMA, validators, OWNER);
      const raw = { city: 'Bern', days: 2 };
      const result = await check(raw);
      expect(result).toEqual({ ok: true, value: raw });
      expect(result.ok && result.value).toBe(raw);
    });

    it('lists what the schema refuses, with paths', async () => {
      const check = argumentsCheckerFor(CITY_SCHEMA, validators, OWNER);
      const result = await check({ city: '', days: 0, extra: 1 });
      expect(result.ok).toBe(false);
      const problems = result.ok ? [] : result.problems;
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/city: /),
          expect.stringMatching(/^\/days: /),
          "(root): must NOT have additional property 'extra'",
        ]),
      );
    });

    it('reports a missing required property', async () => {
      const check = argumentsCheckerFor(CITY_SCHEMA, validators, OWNER);
      expect(await check({})).toEqual({ ok: false, problems: ["(root): must have required property 'city'"] });
    });

    it('honours a draft-07 schema', async () => {
      const check = argumentsCheckerFor(
        {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: { n: { type: 'number', exclusiveMinimum: 0 } },
        },
        validators,
        OWNER,
      );
      expect((await check({ n: 1 })).ok).toBe(true);
      expect((await check({ n: 0 })).ok).toBe(false);
    });

    it.each<[string, JsonSchemaObject]>([
      ['an unresolvable $ref', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }],
      ['an unsupported dialect', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }],
      ['an invalid keyword value', { type: 'object', properties: { a: { minLength: 'three' } } }],
    ])('fails the definition for a schema with %s, naming the owner and the input', (_label, schema) => {
      const error = thrownBy(() => argumentsCheckerFor(schema, validators, OWNER));
      expect(error).toBeInstanceOf(McpDefinitionError);
      expect(error.message).toContain(`@McpTool() on ${OWNER}: the input schema cannot be used: `);
    });

    it('says why the schema does not compile', () => {
      const error = thrownBy(() =>
        argumentsCheckerFor({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, validators, OWNER),
      );
      expect(error.message).toContain('Unsupported JSON Schema dialect');
    });
  });
});
