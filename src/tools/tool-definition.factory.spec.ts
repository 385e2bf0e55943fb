import 'reflect-metadata';
import { IsString } from 'class-validator';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import type { ToolDefinition } from '../protocol/mcp.types.js';
import { DtoJsonSchemaConverter, NO_ARGUMENTS_SCHEMA } from './dto-json-schema.js';
import { buildToolDefinition } from './tool-definition.factory.js';

class EchoArgs {
  @IsString()
  text!: string;
}

const OWNER = 'WeatherTools.forecast';

function build(options: McpToolOptions, methodName = 'forecast'): ToolDefinition {
  return buildToolDefinition(options, methodName, OWNER, new DtoJsonSchemaConverter());
}

/** The error `fn` throws, failing the test when it throws nothing. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

function expectDeepFrozen(value: unknown, path = 'definition'): void {
  if (value === null || typeof value !== 'object') return;
  expect({ path, frozen: Object.isFrozen(value) }).toEqual({ path, frozen: true });
  for (const [key, child] of Object.entries(value)) expectDeepFrozen(child, `${path}.${key}`);
}

describe('buildToolDefinition', () => {
  it('names the tool after its method by default', () => {
    expect(build({ description: 'Weather' }).name).toBe('forecast');
  });

  it('uses the name given in the options over the method name', () => {
    expect(build({ name: 'weather.forecast', description: 'Weather' }).name).toBe('weather.forecast');
  });

  it.each(['a', 'get_weather', 'get-weather', 'v1.weather', 'ABC_def-123.x', 'x'.repeat(128)])(
    'accepts the valid name %s',
    (name) => {
      expect(build({ name, description: 'Weather' }).name).toBe(name);
    },
  );

  it.each(['', 'x'.repeat(129), 'get weather', 'météo', 'a/b', 'a:b', 'a@b', 'a,b', 'tool\n', '天气'])(
    'refuses the invalid name %j with an actionable McpToolDefinitionError',
    (name) => {
      const error = thrown(() => build({ name, description: 'Weather' }));
      expect(error).toBeInstanceOf(McpToolDefinitionError);
      expect(error.name).toBe('McpToolDefinitionError');
      expect(error.message).toContain(OWNER);
      expect(error.message).toContain(`"${name}"`);
      expect(error.message).toContain('1 to 128 characters');
      expect(error.message).toMatch(/A-Z, a-z, 0-9, "_", "-" and "\."/);
    },
  );

  it('checks the method name when it is the default', () => {
    expect(() => build({ description: 'Weather' }, 'x'.repeat(129))).toThrow(McpToolDefinitionError);
  });

  it.each([undefined, '', '   \n'])('requires a description (got %j)', (description) => {
    const error = thrown(() => build({ description } as McpToolOptions));
    expect(error).toBeInstanceOf(McpToolDefinitionError);
    expect(error.message).toContain(OWNER);
    expect(error.message).toContain('a description is required');
  });

  it('advertises the no-arguments schema for a tool without input', () => {
    expect(build({ description: 'Weather' }).inputSchema).toBe(NO_ARGUMENTS_SCHEMA);
  });

  it('advertises the schema of its input DTO', () => {
    expect(build({ description: 'Echo', input: EchoArgs }).inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    });
  });

  it('keeps title, description, annotations and _meta', () => {
    const definition = build({
      description: 'Current weather for a city',
      title: 'Weather forecast',
      annotations: { readOnlyHint: true, openWorldHint: false, title: 'Forecast' },
      _meta: { 'example.com/ui': { icon: 'sun' } },
    });
    expect(definition).toEqual({
      name: 'forecast',
      title: 'Weather forecast',
      description: 'Current weather for a city',
      inputSchema: NO_ARGUMENTS_SCHEMA,
      annotations: { readOnlyHint: true, openWorldHint: false, title: 'Forecast' },
      _meta: { 'example.com/ui': { icon: 'sun' } },
    });
  });

  it('leaves out title, annotations and _meta when they are undefined', () => {
    const definition = build({ description: 'Weather', title: undefined, annotations: undefined, _meta: undefined });
    expect(Object.keys(definition).sort()).toEqual(['description', 'inputSchema', 'name']);
  });

  it('freezes the whole definition, nested schema and metadata included', () => {
    const definition = build({
      description: 'Echo',
      input: EchoArgs,
      annotations: { readOnlyHint: true },
      _meta: { nested: { deep: [1, 2] } },
    });
    expectDeepFrozen(definition);
    expect(() => {
      (definition as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });
});
