/**
 * What a tool advertises and answers beyond plain text, with the official SDK client over real
 * HTTP: structured output (DTO and raw JSON Schema) checked on both sides, raw JSON Schema
 * arguments (2020-12 and draft-07), title, annotations, icons and `_meta`, and the content helpers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { Logger } from '@nestjs/common';
import { McpModule } from '../../../src/index.js';
import {
  BLOB_BYTES,
  DESCRIBED_TOOL_ANNOTATIONS,
  DESCRIBED_TOOL_ICONS,
  DESCRIBED_TOOL_META,
  GEO_OUTPUT_SCHEMA,
  PARCEL_INPUT_SCHEMA,
  PAYMENT_INPUT_SCHEMA,
  PNG_BYTES,
  StructuredOutputTools,
  WAV_BYTES,
} from '../../fixtures/pipeline-output.tools.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { onlyText } from '../../utils/tool-results.js';
import { RecordingValidator, useSdkClients } from '../../utils/sdk-clients.js';

describe('structured output, raw schemas, tool metadata and content (SDK client, e2e)', () => {
  let running: RunningApp;
  let tools: StructuredOutputTools;
  const logger = new RecordingLogger();
  const sdk = useSdkClients();

  const connect = async (validator?: jsonSchemaValidator): Promise<Client> =>
    (
      await sdk.connect(running.mcpUrl, {
        info: { name: 'structured-e2e', version: '1.0.0' },
        jsonSchemaValidator: validator,
      })
    ).client;

  /** A client that has listed the tools, as a host does: only then does it know their output schemas. */
  async function listed(validator?: jsonSchemaValidator): Promise<{ client: Client; byName: Map<string, Tool> }> {
    const client = await connect(validator);
    const { tools: list, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    return { client, byName: new Map(list.map((tool) => [tool.name, tool])) };
  }

  beforeAll(async () => {
    running = await startApp(
      {
        imports: [McpModule.forRoot({ name: 'structured-e2e', version: '1.0.0' })],
        providers: [StructuredOutputTools],
      },
      { logger },
    );
    tools = running.app.get(StructuredOutputTools);
    logger.entries.length = 0;
  });

  afterEach(() => {
    logger.entries.length = 0;
    tools.brokenValue = { city: 42, temperatureC: 'hot', conditions: 'sunny' };
  });

  afterAll(async () => {
    await running.close();
    Logger.overrideLogger(false);
  });

  describe('structured output', () => {
    test('tools/list advertises the outputSchema of a DTO and a raw schema given unchanged', async () => {
      const { byName } = await listed();

      expect(byName.get('current_weather')?.outputSchema).toEqual({
        type: 'object',
        properties: {
          city: { type: 'string' },
          temperatureC: { type: 'number' },
          conditions: { type: 'array', items: { type: 'string' } },
          alert: { type: 'boolean' },
        },
        required: ['city', 'temperatureC', 'conditions'],
        additionalProperties: false,
      });
      expect(byName.get('geo_lookup')?.outputSchema).toEqual(GEO_OUTPUT_SCHEMA);
      // A tool without `output` advertises none.
      expect(byName.get('ship_parcel')).not.toHaveProperty('outputSchema');
    });

    test.each([
      ['a DTO', 'current_weather', { city: 'Lisbon', temperatureC: 21.5, conditions: ['sunny', 'light breeze'] }],
      ['a raw JSON Schema', 'geo_lookup', { lat: 38.7223, lon: -9.1393, label: 'Lisbon' }],
    ])(
      'with %s, the call returns structuredContent and its JSON as text; the SDK client validates it',
      async (_label, name, expected) => {
        const validator = new RecordingValidator();
        const { client } = await listed(validator);

        const result = await client.callTool({ name, arguments: { city: 'Lisbon' } });

        expect(result.isError).toBeUndefined();
        expect(result.structuredContent).toEqual(expected);
        expect(JSON.parse(onlyText(result))).toEqual(expected);
        // The client compiled the advertised schema and checked this very value against it.
        expect(validator.verdicts).toEqual([{ input: expected, valid: true }]);
      },
    );

    test("the SDK client's validator of the advertised schema really refuses what does not conform", async () => {
      const { byName } = await listed();
      const geo = new AjvJsonSchemaValidator().getValidator(byName.get('geo_lookup')!.outputSchema as JsonSchemaType);
      expect(geo({ lat: 91, lon: 0 }).valid).toBe(false);
      expect(geo({ lat: 1, lon: 0, extra: true }).valid).toBe(false);
      expect(geo({ lat: 1, lon: 0 }).valid).toBe(true);
    });

    test('a CallToolResult of its own keeps its content; its structuredContent passes the client', async () => {
      const validator = new RecordingValidator();
      const { client } = await listed(validator);

      const result = await client.callTool({ name: 'weather_with_content', arguments: {} });

      const structured = { city: 'Porto', temperatureC: 18, conditions: ['cloudy'], alert: false };
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Porto: 18 °C, cloudy' }],
        structuredContent: structured,
      });
      expect(validator.verdicts).toEqual([{ input: structured, valid: true }]);
    });

    test('an error result passes unchecked, and the SDK client accepts it without structuredContent', async () => {
      const { client } = await listed();
      const result = await client.callTool({ name: 'weather_failure', arguments: {} });
      expect(result).toEqual({ content: [{ type: 'text', text: 'No weather station answered' }], isError: true });
      expect(logger.at('error')).toEqual([]);
    });

    test('wrong types from a DTO-output tool: an isError result naming each violation, logged as an error', async () => {
      const validator = new RecordingValidator();
      const { client } = await listed(validator);

      const result = await client.callTool({ name: 'broken_weather', arguments: {} });

      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const message = onlyText(result);
      expect(message).toMatch(/^Tool broken_weather produced an invalid result: /);
      expect(message).toContain('/city: must be string');
      expect(message).toContain('/temperatureC: must be number');
      expect(message).toContain('/conditions: must be array');
      // Nothing structured reached the client, so it had nothing to check.
      expect(validator.verdicts).toEqual([]);

      const errors = logger.at('error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('broken_weather');
      expect(errors[0]).toContain('StructuredOutputTools.broken');
      expect(errors[0]).toContain('/city: must be string');
    });

    test('a raw-schema violation (bound, extra property, missing property) is named too', async () => {
      tools.brokenValue = { lat: 123, extra: 'x' };
      const { client } = await listed();

      const message = onlyText(await client.callTool({ name: 'broken_geo', arguments: {} }));

      expect(message).toMatch(/^Tool broken_geo produced an invalid result: /);
      expect(message).toContain('/lat: must be <= 90');
      expect(message).toContain("must NOT have additional property 'extra'");
      expect(message).toContain("must have required property 'lon'");
      expect(logger.at('error')).toEqual([expect.stringContaining('broken_geo')]);
    });

    test.each([
      ['a string', 'sunny', 'a string'],
      ['an array', [{ city: 'Lisbon' }], 'an array'],
      ['null', null, 'null'],
      [
        'a CallToolResult without structuredContent',
        { content: [{ type: 'text', text: 'x' }] },
        'no structuredContent',
      ],
    ])('%s where an object is due is an isError result, and logged', async (_label, value, said) => {
      tools.brokenValue = value;
      const { client } = await listed();

      const result = await client.callTool({ name: 'broken_weather', arguments: {} });

      expect(result.isError).toBe(true);
      expect(onlyText(result)).toMatch(/^Tool broken_weather produced an invalid result: /);
      expect(onlyText(result)).toContain(said);
      expect(logger.at('error')).toHaveLength(1);
    });

    test('serving goes on after an invalid result: the same session gets a valid one next', async () => {
      const { client } = await listed();
      expect((await client.callTool({ name: 'broken_weather', arguments: {} })).isError).toBe(true);
      const good = await client.callTool({ name: 'current_weather', arguments: { city: 'Faro' } });
      expect(good.isError).toBeUndefined();
      expect(good.structuredContent).toMatchObject({ city: 'Faro' });
    });
  });

  describe('raw JSON Schema arguments', () => {
    test('are advertised exactly as given: $schema, $defs, $ref, definitions, dependencies, closed objects', async () => {
      const { byName } = await listed();
      expect(byName.get('ship_parcel')?.inputSchema).toEqual(PARCEL_INPUT_SCHEMA);
      expect(byName.get('pay')?.inputSchema).toEqual(PAYMENT_INPUT_SCHEMA);
    });

    test('2020-12: valid arguments reach the handler unchanged', async () => {
      const client = await connect();
      const args = {
        address: { street: 'Rua Augusta 1', city: 'Lisboa', postcode: '1100-048' },
        weightKg: 2.5,
        tags: ['priority', 'fragile'],
      };
      const result = await client.callTool({ name: 'ship_parcel', arguments: args });
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(onlyText(result))).toEqual(args);
    });

    test.each<[string, Record<string, unknown>, string[]]>([
      [
        'a nested wrong type (through $ref)',
        { address: { street: 'Rua Augusta 1', city: 7 }, weightKg: 1 },
        ['/address/city: must be string'],
      ],
      [
        'an additional property at the root and nested',
        { address: { street: 'Rua Augusta 1', city: 'Lisboa', floor: 3 }, weightKg: 1, gift: true },
        ["(root): must NOT have additional property 'gift'", "/address: must NOT have additional property 'floor'"],
      ],
      [
        'a missing property, a pattern and an exclusive minimum',
        { address: { street: 'Rua Augusta 1', postcode: '1100' }, weightKg: 0 },
        [
          "/address: must have required property 'city'",
          '/address/postcode: must match pattern',
          '/weightKg: must be > 0',
        ],
      ],
      [
        'prefixItems (a 2020-12 keyword)',
        { address: { street: 'a', city: 'b' }, weightKg: 1, tags: ['x'] },
        ['/tags/0'],
      ],
    ])('2020-12: %s is an isError result naming the problem', async (_label, args, problems) => {
      const client = await connect();
      const result = await client.callTool({ name: 'ship_parcel', arguments: args });
      expect(result.isError).toBe(true);
      const message = onlyText(result);
      expect(message).toMatch(/^Invalid arguments for tool ship_parcel:/);
      for (const problem of problems) expect(message).toContain(problem);
    });

    test('draft-07: valid arguments pass, and `dependencies` is enforced as draft-07 defines it', async () => {
      const client = await connect();

      const ok = { cents: 1250, card: '4111111111111111', billingCity: 'Porto' };
      expect(JSON.parse(onlyText(await client.callTool({ name: 'pay', arguments: ok })))).toEqual(ok);
      expect(JSON.parse(onlyText(await client.callTool({ name: 'pay', arguments: { cents: 1 } })))).toEqual({
        cents: 1,
      });

      const missingBilling = await client.callTool({ name: 'pay', arguments: { cents: 1, card: '4111111111111111' } });
      expect(missingBilling.isError).toBe(true);
      expect(onlyText(missingBilling)).toContain('billingCity');
    });

    test('draft-07: wrong types through definitions/$ref and an additional property are named', async () => {
      const client = await connect();
      const result = await client.callTool({ name: 'pay', arguments: { cents: 0.5, currency: 'EUR' } });
      expect(result.isError).toBe(true);
      const message = onlyText(result);
      expect(message).toContain('/cents: must be integer');
      expect(message).toContain("(root): must NOT have additional property 'currency'");
    });
  });

  describe('tool metadata', () => {
    test('title, annotations (all four hints), icons and _meta are passed through in tools/list', async () => {
      const { byName } = await listed();
      expect(byName.get('delete_forecast')).toEqual({
        name: 'delete_forecast',
        title: 'Delete forecast',
        description: 'Deletes a stored forecast',
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string', minLength: 1 } },
          required: ['city'],
          additionalProperties: false,
        },
        annotations: DESCRIBED_TOOL_ANNOTATIONS,
        icons: DESCRIBED_TOOL_ICONS,
        _meta: DESCRIBED_TOOL_META,
      });
    });

    test('a tool without them advertises none of them', async () => {
      const { byName } = await listed();
      const plain = byName.get('media_report')!;
      for (const key of ['title', 'annotations', 'icons', '_meta', 'outputSchema']) {
        expect(plain).not.toHaveProperty(key);
      }
    });
  });

  describe('content helpers', () => {
    test('text, image, audio, resourceLink, embeddedText and embeddedBlob arrive intact', async () => {
      const client = await connect();

      const result = await client.callTool({ name: 'media_report', arguments: {} });

      expect(result.isError).toBeUndefined();
      expect(result.content).toEqual([
        { type: 'text', text: 'Report for Lisbon', annotations: { audience: ['user'], priority: 0.9 } },
        {
          type: 'image',
          data: PNG_BYTES.toString('base64'),
          mimeType: 'image/png',
          annotations: { audience: ['assistant'] },
        },
        { type: 'audio', data: WAV_BYTES.toString('base64'), mimeType: 'audio/wav' },
        {
          type: 'resource_link',
          uri: 'file:///reports/lisbon.pdf',
          name: 'lisbon.pdf',
          title: 'Lisbon report',
          description: 'The full report',
          mimeType: 'application/pdf',
          size: 1024,
          annotations: { priority: 0.5 },
        },
        {
          type: 'resource',
          resource: { uri: 'config://weather/settings.json', text: '{"units":"metric"}', mimeType: 'application/json' },
          annotations: { lastModified: '2025-01-12T15:00:58Z' },
        },
        {
          type: 'resource',
          resource: {
            uri: 'file:///exports/raw.bin',
            blob: Buffer.from(BLOB_BYTES).toString('base64'),
            mimeType: 'application/octet-stream',
          },
          annotations: { audience: ['user', 'assistant'], priority: 0 },
        },
      ]);
    });

    test("the SDK's CallToolResultSchema accepts the result, and the bytes decode back", async () => {
      const client = await connect();
      const result = await client.callTool({ name: 'media_report', arguments: {} });

      const parsed = CallToolResultSchema.safeParse(result);
      expect(parsed.success).toBe(true);
      const content = (parsed.data as CallToolResult).content;
      expect(content.map((block) => block.type)).toEqual([
        'text',
        'image',
        'audio',
        'resource_link',
        'resource',
        'resource',
      ]);
      const [, img, sound, , , blob] = content;
      expect(img?.type === 'image' && Buffer.from(img.data, 'base64')).toEqual(PNG_BYTES);
      expect(sound?.type === 'audio' && Buffer.from(sound.data, 'base64')).toEqual(WAV_BYTES);
      expect(blob?.type === 'resource' && 'blob' in blob.resource && Buffer.from(blob.resource.blob, 'base64')).toEqual(
        Buffer.from(BLOB_BYTES),
      );
    });
  });
});
