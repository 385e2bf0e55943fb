import 'reflect-metadata';
import { IsNumber, IsString } from 'class-validator';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import type { Icon, JsonSchemaObject, ToolDefinition } from '../protocol/mcp.types.js';
import { DtoJsonSchemaConverter, NO_ARGUMENTS_SCHEMA } from '../schemas/dto-json-schema.js';
import { buildToolDefinition } from './tool-definition.factory.js';
import { thrownBy } from '../../test/utils/thrown.js';

class EchoArgs {
  @IsString()
  text!: string;
}

class ForecastResult {
  @IsNumber()
  celsius!: number;
}

const OWNER = 'WeatherTools.forecast';

function build(options: McpToolOptions, methodName = 'forecast'): ToolDefinition {
  return buildToolDefinition(options, methodName, OWNER, new DtoJsonSchemaConverter());
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
    'refuses the invalid name %j with an actionable McpDefinitionError',
    (name) => {
      const error = thrownBy(() => build({ name, description: 'Weather' }));
      expect(error).toBeInstanceOf(McpDefinitionError);
      expect(error.name).toBe('McpDefinitionError');
      expect(error.message).toContain(OWNER);
      expect(error.message).toContain(`"${name}"`);
      expect(error.message).toContain('1 to 128 characters');
      expect(error.message).toMatch(/A-Z, a-z, 0-9, "_", "-" and "\."/);
    },
  );

  it('checks the method name when it is the default', () => {
    expect(() => build({ description: 'Weather' }, 'x'.repeat(129))).toThrow(McpDefinitionError);
  });

  it.each([undefined, '', '   \n'])('requires a description (got %j)', (description) => {
    const error = thrownBy(() => build({ description } as McpToolOptions));
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toContain(OWNER);
    expect(error.message).toContain('a description is required');
  });

  it('advertises the no-arguments schema for a tool without input', () => {
    // A copy: the definition is cloned whole, so nothing in it is shared with anything else.
    expect(build({ description: 'Weather' }).inputSchema).toEqual(NO_ARGUMENTS_SCHEMA);
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

describe('buildToolDefinition: raw JSON Schemas', () => {
  /** A schema using what class-validator cannot express: advertised exactly as written. */
  const rawInput = (): JsonSchemaObject => ({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      point: { $ref: '#/$defs/point' },
      unit: { enum: ['c', 'f'] },
    },
    required: ['city'],
    oneOf: [{ required: ['city'] }, { required: ['point'] }],
    additionalProperties: false,
    $defs: { point: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } } } },
    'x-vendor': { kept: true },
  });

  const rawOutput = (): JsonSchemaObject => ({
    type: 'object',
    properties: { celsius: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['celsius'],
  });

  it.each(['input', 'output'] as const)('advertises a raw %s schema unchanged', (role) => {
    const definition = build({ description: 'Weather', [role]: rawInput() });
    expect(definition[role === 'input' ? 'inputSchema' : 'outputSchema']).toEqual(rawInput());
  });

  it('advertises raw input and output schemas together', () => {
    const definition = build({ description: 'Weather', input: rawInput(), output: rawOutput() });
    expect(definition.inputSchema).toEqual(rawInput());
    expect(definition.outputSchema).toEqual(rawOutput());
  });

  it('freezes raw schemas deeply, without freezing the objects the caller passed', () => {
    const input = rawInput();
    const output = rawOutput();
    const definition = build({ description: 'Weather', input, output });
    expectDeepFrozen(definition);
    expect(definition.inputSchema).not.toBe(input);
    expect(definition.outputSchema).not.toBe(output);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.properties)).toBe(false);
    expect(Object.isFrozen(output)).toBe(false);
  });

  it('is not changed by later mutations of the objects the caller passed', () => {
    const input = rawInput();
    const output = rawOutput();
    const definition = build({ description: 'Weather', input, output });
    (input.properties as Record<string, unknown>).injected = { type: 'string' };
    (input.required as string[]).push('injected');
    ((input.$defs as Record<string, Record<string, unknown>>).point!.properties as Record<string, unknown>).alt = {};
    (input as { type: string }).type = 'array';
    (output.properties as Record<string, Record<string, unknown>>).celsius!.type = 'string';
    expect(definition.inputSchema).toEqual(rawInput());
    expect(definition.outputSchema).toEqual(rawOutput());
  });

  it('is not changed by later mutations of icons, annotations or _meta the caller passed', () => {
    const icons: Icon[] = [{ src: 'https://example.com/sun.png', sizes: ['48x48'] }];
    const annotations = { readOnlyHint: true };
    const meta = { 'example.com/ui': { icon: 'sun' } };
    const definition = build({ description: 'Weather', icons, annotations, _meta: meta });
    (icons[0]!.sizes as string[]).push('any');
    icons.push({ src: 'https://example.com/moon.png' });
    annotations.readOnlyHint = false;
    meta['example.com/ui'].icon = 'rain';
    expect(definition.icons).toEqual([{ src: 'https://example.com/sun.png', sizes: ['48x48'] }]);
    expect(definition.annotations).toEqual({ readOnlyHint: true });
    expect(definition._meta).toEqual({ 'example.com/ui': { icon: 'sun' } });
  });

  it('advertises the schema of an output DTO', () => {
    expect(build({ description: 'Weather', output: ForecastResult }).outputSchema).toEqual({
      type: 'object',
      properties: { celsius: { type: 'number' } },
      required: ['celsius'],
      additionalProperties: false,
    });
  });

  it('has no outputSchema without output', () => {
    expect(build({ description: 'Weather', input: rawInput() })).not.toHaveProperty('outputSchema');
  });

  it.each<[string, unknown]>([
    ['type "string"', { type: 'string' }],
    ['type "array"', { type: 'array', items: {} }],
    ['no type', { properties: { a: { type: 'string' } } }],
    ['type ["object"]', { type: ['object'] }],
    ['type ["object", "null"]', { type: ['object', 'null'] }],
    ['an array', [{ type: 'object' }]],
    ['null', null],
    ['a string', 'object'],
    ['a number', 42],
    ['true', true],
  ])('refuses a raw schema with %s as input or output', (_label, schema) => {
    for (const role of ['input', 'output'] as const) {
      const error = thrownBy(() => build({ description: 'Weather', [role]: schema } as unknown as McpToolOptions));
      expect(error).toBeInstanceOf(McpDefinitionError);
      expect(error.message).toBe(
        `@McpTool() on ${OWNER}: ${role} must be a DTO class or a JSON Schema object with type "object"`,
      );
    }
  });
});

describe('buildToolDefinition: icons', () => {
  it('advertises valid icons as given', () => {
    const icons: Icon[] = [
      { src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48', '96x96'], theme: 'light' },
      { src: 'data:image/svg+xml;base64,PHN2Zy8+', theme: 'dark' },
    ];
    expect(build({ description: 'Weather', icons }).icons).toEqual(icons);
  });

  it('advertises an empty icon list', () => {
    expect(build({ description: 'Weather', icons: [] }).icons).toEqual([]);
  });

  it('leaves icons out when they are undefined', () => {
    expect(build({ description: 'Weather', icons: undefined })).not.toHaveProperty('icons');
  });

  it.each<[string, unknown[], number]>([
    ['without src', [{ mimeType: 'image/png' }], 0],
    ['with an empty src', [{ src: '' }], 0],
    ['with a non-string src', [{ src: 42 }], 0],
    ['that is null', [null], 0],
    ['that is a string', ['https://example.com/sun.png'], 0],
    ['after a valid one', [{ src: 'https://example.com/a.png' }, { src: 'https://example.com/b.png' }, {}], 2],
  ])('refuses an icon %s, naming its index', (_label, icons, index) => {
    const error = thrownBy(() => build({ description: 'Weather', icons } as unknown as McpToolOptions));
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toBe(`@McpTool() on ${OWNER}: icons[${index}] needs a src URI`);
  });

  it.each<[string, unknown]>([
    ['an object', { src: 'https://example.com/sun.png' }],
    ['a string', 'https://example.com/sun.png'],
    ['null', null],
  ])('refuses icons that are %s rather than an array', (_label, icons) => {
    const error = thrownBy(() => build({ description: 'Weather', icons } as unknown as McpToolOptions));
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toContain('icons[0] needs a src URI');
  });
});

describe('buildToolDefinition: passthrough', () => {
  it('advertises title, annotations, icons and _meta alongside raw schemas, in full', () => {
    const definition = build({
      name: 'weather.forecast',
      title: 'Forecast',
      description: 'Weather',
      input: { type: 'object', properties: { city: { type: 'string' } } },
      output: { type: 'object', properties: { celsius: { type: 'number' } } },
      annotations: { title: 'Forecast', readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      icons: [{ src: 'https://example.com/sun.png' }],
      _meta: { 'example.com/version': 3, nested: { list: [1, { deep: true }] } },
      timeoutMs: 5_000,
    });
    expect(definition).toEqual({
      name: 'weather.forecast',
      title: 'Forecast',
      description: 'Weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      outputSchema: { type: 'object', properties: { celsius: { type: 'number' } } },
      annotations: { title: 'Forecast', readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      icons: [{ src: 'https://example.com/sun.png' }],
      _meta: { 'example.com/version': 3, nested: { list: [1, { deep: true }] } },
    });
  });

  it('does not advertise timeoutMs, which is the server’s business', () => {
    expect(build({ description: 'Weather', timeoutMs: 1_000 })).not.toHaveProperty('timeoutMs');
  });

  it('keeps an empty title', () => {
    expect(build({ description: 'Weather', title: '' }).title).toBe('');
  });
});

describe('buildToolDefinition: timeoutMs', () => {
  it.each([undefined, 1, 250, 60_000, 2 ** 31 - 1])('accepts %p', (timeoutMs) => {
    expect(() => build({ description: 'Weather', timeoutMs })).not.toThrow();
  });

  it.each<unknown>([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000', null])(
    'refuses %p with a McpDefinitionError naming the owner and the value',
    (timeoutMs) => {
      const error = thrownBy(() => build({ description: 'Weather', timeoutMs } as unknown as McpToolOptions));
      expect(error).toBeInstanceOf(McpDefinitionError);
      expect(error.message).toBe(
        `@McpTool() on ${OWNER}: timeoutMs must be a whole number of milliseconds from 1 to ${2 ** 31 - 1}, got ${String(timeoutMs)}`,
      );
    },
  );
});
