import { jest } from '@jest/globals';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { JsonSchemaValidatorFactory } from '../schemas/json-schema.validator.js';
import { outputCheckerFor } from './tool-output.checker.js';
import { thrownBy } from '../../test/utils/thrown.js';

const OWNER = 'WeatherTools.forecast';

// One factory, as the store shares one: each holds Ajv instances that are costly to create.
const validators = new JsonSchemaValidatorFactory();

afterEach(() => {
  jest.restoreAllMocks();
});

describe('outputCheckerFor', () => {
  it('has no check without an output schema', () => {
    const compile = jest.spyOn(validators, 'compile');
    expect(outputCheckerFor(undefined, validators, OWNER)).toBeUndefined();
    expect(compile).not.toHaveBeenCalled();
  });

  it('checks results against the output schema, compiled once', () => {
    const compile = jest.spyOn(validators, 'compile');
    const check = outputCheckerFor(
      { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
      validators,
      OWNER,
    )!;
    expect(check({ celsius: 21 })).toEqual({ ok: true });
    expect(check({ celsius: 'warm' })).toEqual({ ok: false, problems: ['/celsius: must be number'] });
    expect(check({})).toEqual({ ok: false, problems: ["(root): must have required property 'celsius'"] });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('fails the definition for a schema that does not compile, naming the owner and the output', () => {
    const error = thrownBy(() =>
      outputCheckerFor({ type: 'object', properties: { a: { $ref: '#/$defs/nowhere' } } }, validators, OWNER),
    );
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toMatch(
      new RegExp(
        `^@McpTool\\(\\) on ${OWNER}: the output schema cannot be used: JSON Schema \\(2020-12\\) does not compile`,
      ),
    );
  });
});
