/**
 * The resources, prompts and completion example (the README's until 1.0, now the site's "Resources,
 * templates, prompts, completion" page), compiled and served: its code is below (a small
 * WeatherService and CITIES stand in for `./weather.service.js`), then the official SDK client checks
 * each thing the page says of it. A change to the example on the site is a change here too.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallHandler, CanActivate, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { Observable } from 'rxjs';
import {
  McpExecutionContext,
  McpModule,
  McpPromptRegistry,
  McpResourceRegistry,
  McpSessionRegistry,
} from '../../../src/index.js';
import { McpResourceTemplateRegistry } from '../../../src/index.js';
import { definitionError } from '../../utils/bootstrap-failure.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { rpcError } from '../../utils/thrown.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { until } from '../../utils/wait.js';

// ---- Supplied: what `./weather.service.js` gives the example. ----

/** Osaka is a known city without a forecast yet; New York needs percent-encoding in a URI. */
const CITIES = ['Lisbon', 'Lima', 'Oslo', 'Osaka', 'New York'];

const FORECASTS = new Map([
  ['Lisbon', 'Lisbon: sunny, 24 °C'],
  ['Lima', 'Lima: overcast, 19 °C'],
  ['Oslo', 'Oslo: light rain, 9 °C'],
  ['New York', 'New York: windy, 15 °C'],
]);

@Injectable()
class WeatherService {
  cities(): string[] {
    return [...CITIES];
  }

  forecast(city: string): string | undefined {
    return FORECASTS.get(city);
  }
}

// Its imports stay in the block, where the example has them: imports are hoisted, so they still come first.
// ---- The example: begin (mcp42 is ../../src, and ./weather.service.js is above) ----
import { Injectable } from '@nestjs/common';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  embeddedText,
  McpCompletion,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  userMessage,
  type McpCompletionRequest,
} from '../../../src/index.js';

export class ForecastVars {
  @IsIn(CITIES) // an `enum` in the schema: `city` completes from it without a completer; other cities get -32602
  city!: string;
}

export class SummaryArgs {
  @IsString()
  @JSONSchema({ description: 'The city to summarise' })
  city!: string;

  @IsOptional()
  @IsIn(['brief', 'detailed'])
  style?: 'brief' | 'detailed';
}

@Injectable()
export class WeatherResources {
  constructor(private readonly weather: WeatherService) {}

  @McpResource({ uri: 'weather://cities', name: 'cities', mimeType: 'application/json' })
  cities() {
    return this.weather.cities(); // any JSON value is sent as JSON text
  }

  @McpResourceTemplate({ uriTemplate: 'weather://forecast/{city}', name: 'forecast', variables: ForecastVars })
  forecast({ city }: ForecastVars) {
    return this.weather.forecast(city); // no forecast yet: undefined answers -32002 (resource not found)
  }

  @McpPrompt({ name: 'forecast_summary', description: 'Summarise the forecast of a city', args: SummaryArgs })
  summary({ city, style }: SummaryArgs) {
    const forecast = this.weather.forecast(city) ?? 'No forecast yet.';
    return [
      userMessage(embeddedText(`weather://forecast/${encodeURIComponent(city)}`, forecast)),
      userMessage(`Summarise the forecast above for a traveller${style === 'brief' ? ', in one sentence' : ''}.`),
    ];
  }

  @McpCompletion({ prompt: 'forecast_summary', argument: 'city' })
  completeCity({ value }: McpCompletionRequest) {
    return this.weather.cities().filter((city) => city.toLowerCase().startsWith(value.toLowerCase()));
  }
}
// ---- The example: end ----

// ---- The "Subscriptions" snippet (its constructor and method, in a class of their own). ----

@Injectable()
export class ForecastUpdates {
  constructor(private readonly resources: McpResourceRegistry) {}

  onRefreshed(city: string): void {
    this.resources.notifyUpdated(`weather://forecast/${encodeURIComponent(city)}`);
  }
}

// ---- The test's own probes: what guards and interceptors are told ("Guards and context"). ----

interface Seen {
  readonly kind: string;
  readonly name: string;
  readonly uri: string | undefined;
  readonly phase: string;
  readonly arguments: object | undefined;
  /** `McpContext.name`, as the guard reads it from `McpExecutionContext.context`. */
  readonly toolName: string | undefined;
}

/** Writes down what `McpExecutionContext` says of each MCP pass; admits all but what `deny` names. */
@Injectable()
class RecordingGuard implements CanActivate {
  static readonly seen: Seen[] = [];
  static deny: ((seen: Seen) => boolean) | undefined;

  canActivate(context: ExecutionContext): boolean {
    if (!McpExecutionContext.isMcp(context)) return true;
    const mcp = McpExecutionContext.of(context);
    const seen: Seen = {
      kind: mcp.kind,
      name: mcp.name,
      uri: mcp.uri,
      phase: mcp.phase,
      arguments: mcp.arguments,
      toolName: mcp.context?.name,
    };
    RecordingGuard.seen.push(seen);
    return !RecordingGuard.deny?.(seen);
  }
}

/** Writes down the arguments each MCP handler is about to run with, as interceptors see them. */
@Injectable()
class RecordingInterceptor implements NestInterceptor {
  static readonly seen: { kind: string; arguments: object | undefined }[] = [];

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (McpExecutionContext.isMcp(context)) {
      const mcp = McpExecutionContext.of(context);
      RecordingInterceptor.seen.push({ kind: mcp.kind, arguments: mcp.arguments });
    }
    return next.handle();
  }
}

const FORECAST_TEMPLATE = 'weather://forecast/{city}';
const PROMPT_REF = { type: 'ref/prompt', name: 'forecast_summary' } as const;
const TEMPLATE_REF = { type: 'ref/resource', uri: FORECAST_TEMPLATE } as const;
const NOT_FOUND = 'MCP error -32002: Resource not found';

describe('the resources, prompts and completion example, served (official SDK client)', () => {
  let running: RunningApp;
  let sessions: McpSessionRegistry;
  // Ended, not just left, so that no session stays subscribed into the next test.
  const sdk = useSdkClients({ terminate: true });

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'example-resources', version: '1.0.0' })],
      providers: [
        WeatherService,
        WeatherResources,
        ForecastUpdates,
        { provide: APP_GUARD, useClass: RecordingGuard },
        { provide: APP_INTERCEPTOR, useClass: RecordingInterceptor },
      ],
    });
    sessions = running.app.get(McpSessionRegistry);
  });

  beforeEach(() => {
    RecordingGuard.seen.length = 0;
    RecordingGuard.deny = undefined;
    RecordingInterceptor.seen.length = 0;
  });

  afterEach(() => {
    RecordingGuard.deny = undefined;
  });

  afterAll(async () => {
    await running?.close();
  });

  async function connect(prepare?: (client: Client) => void): Promise<Client> {
    const { client } = await sdk.connect(running.mcpUrl, {
      info: { name: 'example-resources', version: '1.0.0' },
      prepare,
    });
    return client;
  }

  /** What the guards were told, without `arguments` and `toolName`. */
  const passes = (): Omit<Seen, 'arguments' | 'toolName'>[] =>
    RecordingGuard.seen.map(({ kind, name, uri, phase }) => ({ kind, name, uri, phase }));

  it('announces the capabilities the section names', async () => {
    const client = await connect();

    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  describe('@McpResource: weather://cities', () => {
    it('is listed by resources/list with its name and MIME type', async () => {
      const client = await connect();

      expect(await client.listResources()).toEqual({
        resources: [{ uri: 'weather://cities', name: 'cities', mimeType: 'application/json' }],
      });
    });

    it('is read as the JSON text of what the method returns, with the declared MIME type', async () => {
      const client = await connect();

      expect(await client.readResource({ uri: 'weather://cities' })).toEqual({
        contents: [{ uri: 'weather://cities', mimeType: 'application/json', text: JSON.stringify(CITIES) }],
      });
    });
  });

  describe('@McpResourceTemplate: weather://forecast/{city}', () => {
    it('is listed by resources/templates/list', async () => {
      const client = await connect();

      expect(await client.listResourceTemplates()).toEqual({
        resourceTemplates: [{ uriTemplate: FORECAST_TEMPLATE, name: 'forecast' }],
      });
    });

    it('reads a known city: the returned string is the text, for the URI read, with no MIME type declared', async () => {
      const client = await connect();

      expect(await client.readResource({ uri: 'weather://forecast/Lisbon' })).toEqual({
        contents: [{ uri: 'weather://forecast/Lisbon', text: 'Lisbon: sunny, 24 °C' }],
      });
    });

    it('decodes a percent-encoded variable before validating it', async () => {
      const client = await connect();

      expect(await client.readResource({ uri: 'weather://forecast/New%20York' })).toEqual({
        contents: [{ uri: 'weather://forecast/New%20York', text: 'New York: windy, 15 °C' }],
      });
    });

    it('answers -32002 with the URI in data for a known city without forecast yet (the method returns undefined)', async () => {
      const client = await connect();

      expect(await rpcError(client.readResource({ uri: 'weather://forecast/Osaka' }))).toEqual({
        code: -32002,
        message: NOT_FOUND,
        data: { uri: 'weather://forecast/Osaka' },
      });
      expect(RecordingInterceptor.seen).toEqual([{ kind: 'resourceTemplate', arguments: { city: 'Osaka' } }]);
    });

    it('answers -32602, not -32002, for a city @IsIn(CITIES) refuses: the method never runs', async () => {
      const client = await connect();

      expect(await rpcError(client.readResource({ uri: 'weather://forecast/Atlantis' }))).toEqual({
        code: -32602,
        message:
          `MCP error -32602: Invalid params: invalid variables for ${FORECAST_TEMPLATE}: ` +
          `city: city must be one of the following values: ${CITIES.join(', ')}`,
        data: undefined,
      });
      expect(RecordingInterceptor.seen).toEqual([]);
    });

    it('answers -32002 for a URI nothing serves: a simple {city} never spans a /', async () => {
      const client = await connect();

      expect(await rpcError(client.readResource({ uri: 'weather://forecast/Lisbon/tomorrow' }))).toEqual({
        code: -32002,
        message: NOT_FOUND,
        data: { uri: 'weather://forecast/Lisbon/tomorrow' },
      });
    });

    it('answers the same -32002 when the guards deny the caller, and hides the template from the list', async () => {
      const client = await connect();
      RecordingGuard.deny = (seen) => seen.kind === 'resourceTemplate';

      expect(await rpcError(client.readResource({ uri: 'weather://forecast/Lisbon' }))).toEqual({
        code: -32002,
        message: NOT_FOUND,
        data: { uri: 'weather://forecast/Lisbon' },
      });
      expect(await client.listResourceTemplates()).toEqual({ resourceTemplates: [] });
      expect(RecordingInterceptor.seen).toEqual([]);
    });
  });

  describe('@McpPrompt: forecast_summary', () => {
    it('lists the DTO properties as arguments: city required and described, style optional', async () => {
      const client = await connect();

      expect(await client.listPrompts()).toEqual({
        prompts: [
          {
            name: 'forecast_summary',
            description: 'Summarise the forecast of a city',
            arguments: [
              { name: 'city', description: 'The city to summarise', required: true },
              { name: 'style', required: false },
            ],
          },
        ],
      });
    });

    it('renders the two user messages, the forecast embedded as a resource, and adds the prompt description', async () => {
      const client = await connect();

      expect(await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Lisbon' } })).toEqual({
        description: 'Summarise the forecast of a city',
        messages: [
          {
            role: 'user',
            content: { type: 'resource', resource: { uri: 'weather://forecast/Lisbon', text: 'Lisbon: sunny, 24 °C' } },
          },
          { role: 'user', content: { type: 'text', text: 'Summarise the forecast above for a traveller.' } },
        ],
      });
    });

    it('asks for one sentence with style brief', async () => {
      const client = await connect();
      const result = await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Oslo', style: 'brief' } });

      expect(result.messages[1]).toEqual({
        role: 'user',
        content: { type: 'text', text: 'Summarise the forecast above for a traveller, in one sentence.' },
      });
    });

    it.each(['Lima', 'New York'])(
      'embeds the forecast of %s under the encoded URI a read of it answers with the same contents',
      async (city) => {
        const client = await connect();
        const prompt = await client.getPrompt({ name: 'forecast_summary', arguments: { city } });
        const uri = `weather://forecast/${encodeURIComponent(city)}`;

        expect(prompt.messages[0]!.content).toEqual({
          type: 'resource',
          resource: { uri, text: FORECASTS.get(city) },
        });
        const read = await client.readResource({ uri });
        expect(prompt.messages[0]!.content).toEqual({ type: 'resource', resource: read.contents[0] });
      },
    );

    it('embeds weather://forecast/New%20York for New York, the spelling the subscription snippet notifies', async () => {
      const client = await connect();
      const prompt = await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'New York' } });

      expect(prompt.messages[0]!.content).toMatchObject({ resource: { uri: 'weather://forecast/New%20York' } });
    });

    it('says "No forecast yet." for a known city without forecast, whose read answers -32002', async () => {
      const client = await connect();

      expect(await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Osaka' } })).toEqual({
        description: 'Summarise the forecast of a city',
        messages: [
          {
            role: 'user',
            content: { type: 'resource', resource: { uri: 'weather://forecast/Osaka', text: 'No forecast yet.' } },
          },
          { role: 'user', content: { type: 'text', text: 'Summarise the forecast above for a traveller.' } },
        ],
      });
      expect((await rpcError(client.readResource({ uri: 'weather://forecast/Osaka' }))).code).toBe(-32002);
    });

    it.each<[string, Record<string, string>, string]>([
      ['no city', { style: 'brief' }, 'city: city must be a string'],
      [
        'a style outside @IsIn',
        { city: 'Lima', style: 'verbose' },
        'style: style must be one of the following values: brief, detailed',
      ],
      ['an undeclared argument', { city: 'Lima', days: '3' }, 'days: property days should not exist'],
    ])('refuses %s with -32602 naming the problem', async (_label, args, problem) => {
      const client = await connect();

      expect(await rpcError(client.getPrompt({ name: 'forecast_summary', arguments: args }))).toEqual({
        code: -32602,
        message: `MCP error -32602: Invalid params: invalid arguments for prompt forecast_summary: ${problem}`,
        data: undefined,
      });
    });

    it('refuses an unknown prompt with -32602', async () => {
      const client = await connect();

      expect(await rpcError(client.getPrompt({ name: 'forecast_sumary', arguments: {} }))).toEqual({
        code: -32602,
        message: 'MCP error -32602: Invalid params: Unknown prompt: forecast_sumary',
        data: undefined,
      });
    });

    it('refuses a prompt the guards deny as if it did not exist, and hides it from the list', async () => {
      const client = await connect();
      RecordingGuard.deny = (seen) => seen.kind === 'prompt';

      expect(await rpcError(client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Lima' } }))).toEqual({
        code: -32602,
        message: 'MCP error -32602: Invalid params: Unknown prompt: forecast_summary',
        data: undefined,
      });
      expect(await client.listPrompts()).toEqual({ prompts: [] });
    });
  });

  describe('completion', () => {
    it.each<[string, string[]]>([
      ['', CITIES],
      ['l', ['Lisbon', 'Lima']],
      ['OS', ['Oslo', 'Osaka']],
      ['new', ['New York']],
      ['x', []],
    ])(
      'completes the prompt city %j with the @McpCompletion method, behind its own pipeline',
      async (value, values) => {
        const client = await connect();

        expect(await client.complete({ ref: PROMPT_REF, argument: { name: 'city', value } })).toEqual({
          completion: { values, total: values.length, hasMore: false },
        });
        expect(passes()).toEqual([
          { kind: 'prompt', name: 'forecast_summary', uri: undefined, phase: 'list' },
          { kind: 'completion', name: 'forecast_summary', uri: undefined, phase: 'call' },
        ]);
      },
    );

    it.each<[string, string[]]>([
      ['', ['brief', 'detailed']],
      ['B', ['brief']],
      ['det', ['detailed']],
      ['z', []],
    ])('completes the prompt style %j from its @IsIn list, without a completer', async (value, values) => {
      const client = await connect();

      expect(await client.complete({ ref: PROMPT_REF, argument: { name: 'style', value } })).toEqual({
        completion: { values, total: values.length, hasMore: false },
      });
      expect(passes()).toEqual([{ kind: 'prompt', name: 'forecast_summary', uri: undefined, phase: 'list' }]);
    });

    it.each<[string, string[]]>([
      ['', CITIES],
      ['o', ['Oslo', 'Osaka']],
      ['LI', ['Lisbon', 'Lima']],
      ['q', []],
    ])('completes the template city %j from the @IsIn(CITIES) of ForecastVars', async (value, values) => {
      const client = await connect();

      expect(await client.complete({ ref: TEMPLATE_REF, argument: { name: 'city', value } })).toEqual({
        completion: { values, total: values.length, hasMore: false },
      });
      // No method is behind it: only the template's own guards were asked.
      expect(passes()).toEqual([{ kind: 'resourceTemplate', name: 'forecast', uri: undefined, phase: 'list' }]);
    });

    it('passes the completer what the user filled in already as `arguments`', async () => {
      const client = await connect();

      await client.complete({
        ref: PROMPT_REF,
        argument: { name: 'city', value: 'Li' },
        context: { arguments: { style: 'brief' } },
      });

      expect(RecordingInterceptor.seen).toEqual([
        { kind: 'completion', arguments: { argument: 'city', value: 'Li', arguments: { style: 'brief' } } },
      ]);
    });

    it('gives an empty list for a resource with a fixed URI: it has nothing to complete', async () => {
      const client = await connect();

      expect(
        await client.complete({
          ref: { type: 'ref/resource', uri: 'weather://cities' },
          argument: { name: 'x', value: '' },
        }),
      ).toEqual({ completion: { values: [] } });
    });

    it("gives an empty list when the completer method's own guards deny the caller", async () => {
      const client = await connect();
      RecordingGuard.deny = (seen) => seen.kind === 'completion';

      expect(await client.complete({ ref: PROMPT_REF, argument: { name: 'city', value: 'L' } })).toEqual({
        completion: { values: [] },
      });
      expect(RecordingInterceptor.seen).toEqual([]);
    });

    it('refuses, with -32602 as if they did not exist, a prompt or template the caller may not see', async () => {
      const client = await connect();
      RecordingGuard.deny = (seen) => seen.kind === 'prompt' || seen.kind === 'resourceTemplate';

      expect(await rpcError(client.complete({ ref: PROMPT_REF, argument: { name: 'city', value: '' } }))).toEqual({
        code: -32602,
        message: 'MCP error -32602: Invalid params: Unknown prompt: forecast_summary',
        data: undefined,
      });
      expect(await rpcError(client.complete({ ref: TEMPLATE_REF, argument: { name: 'city', value: '' } }))).toEqual({
        code: -32602,
        message: `MCP error -32602: Invalid params: Unknown resource template: ${FORECAST_TEMPLATE}`,
        data: undefined,
      });
      expect(RecordingInterceptor.seen).toEqual([]);
    });

    it('refuses an argument the prompt does not have, and an unknown template, with -32602', async () => {
      const client = await connect();

      expect(await rpcError(client.complete({ ref: PROMPT_REF, argument: { name: 'days', value: '' } }))).toEqual({
        code: -32602,
        message: 'MCP error -32602: Invalid params: forecast_summary has no argument days',
        data: undefined,
      });
      const unknownTemplate = { type: 'ref/resource', uri: 'weather://radar/{city}' } as const;
      expect(await rpcError(client.complete({ ref: unknownTemplate, argument: { name: 'city', value: '' } }))).toEqual({
        code: -32602,
        message: 'MCP error -32602: Invalid params: Unknown resource template: weather://radar/{city}',
        data: undefined,
      });
    });
  });

  describe('subscriptions', () => {
    it("the snippet's notifyUpdated reaches the subscribed session on its GET stream, and no other", async () => {
      const updated: string[] = [];
      const subscriber = await connect((c) =>
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          updated.push(notification.params.uri);
        }),
      );
      await connect();
      const [first, second] = sdk.connected.map(({ transport }) => sessions.get(transport.sessionId!)!);

      expect(await subscriber.subscribeResource({ uri: 'weather://forecast/New%20York' })).toEqual({});
      await until(() => first!.hasStream && second!.hasStream, 'the GET streams of both SDK clients', 5000);
      running.app.get(ForecastUpdates).onRefreshed('New York');

      await until(() => updated.length > 0, 'resources/updated', 5000);
      expect(updated).toEqual(['weather://forecast/New%20York']);
      const registry = running.app.get(McpResourceRegistry);
      // It counts the sessions told, the bystander not among them.
      expect(registry.notifyUpdated('weather://forecast/New%20York')).toBe(1);
      // Subscriptions match the URI as sent: another spelling of the same resource tells no one.
      expect(registry.notifyUpdated('weather://forecast/New York')).toBe(0);
    });

    it('subscribing to a template URI whose variables a read refuses still answers {}: only the guards are asked', async () => {
      const client = await connect();

      expect(await client.subscribeResource({ uri: 'weather://forecast/Atlantis' })).toEqual({});
      expect((await rpcError(client.readResource({ uri: 'weather://forecast/Atlantis' }))).code).toBe(-32602);
    });

    it('subscribing to a URI nothing serves answers -32002', async () => {
      const client = await connect();

      expect(await rpcError(client.subscribeResource({ uri: 'weather://nowhere' }))).toEqual({
        code: -32002,
        message: NOT_FOUND,
        data: { uri: 'weather://nowhere' },
      });
    });

    it("subscribing to a URI served only by a template the caller's guards deny answers -32002", async () => {
      const client = await connect();
      RecordingGuard.deny = (seen) => seen.kind === 'resourceTemplate';

      expect(await rpcError(client.subscribeResource({ uri: 'weather://forecast/Oslo' }))).toEqual({
        code: -32002,
        message: NOT_FOUND,
        data: { uri: 'weather://forecast/Oslo' },
      });
    });
  });

  describe('at run time', () => {
    it('serves items added to the registries with no pipeline: the global guard is never asked', async () => {
      const client = await connect();
      const resources = running.app.get(McpResourceRegistry);
      const prompts = running.app.get(McpPromptRegistry);
      RecordingGuard.deny = () => true;
      resources.add({ uri: 'weather://alerts', name: 'alerts' }, () => 'none');
      prompts.add({ name: 'alerts_summary', description: 'Summarise the alerts' }, () => 'Any alerts?');
      try {
        expect(await client.readResource({ uri: 'weather://alerts' })).toEqual({
          contents: [{ uri: 'weather://alerts', text: 'none' }],
        });
        expect(await client.getPrompt({ name: 'alerts_summary' })).toEqual({
          description: 'Summarise the alerts',
          messages: [{ role: 'user', content: { type: 'text', text: 'Any alerts?' } }],
        });
        expect(RecordingGuard.seen).toEqual([]);
      } finally {
        resources.remove('weather://alerts');
        prompts.remove('alerts_summary');
      }
    });

    it('disable() hides the example template (-32002) until enable()', async () => {
      const client = await connect();
      const templates = running.app.get(McpResourceTemplateRegistry);

      expect(templates.disable(FORECAST_TEMPLATE)).toBe(true);
      try {
        expect((await rpcError(client.readResource({ uri: 'weather://forecast/Oslo' }))).code).toBe(-32002);
        expect(templates.isEnabled(FORECAST_TEMPLATE)).toBe(false);
        expect(templates.has(FORECAST_TEMPLATE)).toBe(true);
      } finally {
        expect(templates.enable(FORECAST_TEMPLATE)).toBe(true);
      }
      expect(await client.readResource({ uri: 'weather://forecast/Oslo' })).toEqual({
        contents: [{ uri: 'weather://forecast/Oslo', text: 'Oslo: light rain, 9 °C' }],
      });
    });
  });

  describe('guards and context: what McpExecutionContext tells', () => {
    it('kind, name, uri and phase for a listing, a read, a subscription, a prompt and a completion', async () => {
      const client = await connect();
      const after = async (action: () => Promise<unknown>): Promise<ReturnType<typeof passes>> => {
        RecordingGuard.seen.length = 0;
        await action();
        return passes();
      };

      expect(await after(() => client.listResources())).toEqual([
        { kind: 'resource', name: 'cities', uri: 'weather://cities', phase: 'list' },
      ]);
      expect(await after(() => client.listResourceTemplates())).toEqual([
        { kind: 'resourceTemplate', name: 'forecast', uri: undefined, phase: 'list' },
      ]);
      expect(await after(() => client.listPrompts())).toEqual([
        { kind: 'prompt', name: 'forecast_summary', uri: undefined, phase: 'list' },
      ]);
      expect(await after(() => client.readResource({ uri: 'weather://cities' }))).toEqual([
        { kind: 'resource', name: 'cities', uri: 'weather://cities', phase: 'call' },
      ]);
      expect(await after(() => client.readResource({ uri: 'weather://forecast/Oslo' }))).toEqual([
        { kind: 'resourceTemplate', name: 'forecast', uri: 'weather://forecast/Oslo', phase: 'call' },
      ]);
      expect(await after(() => client.subscribeResource({ uri: 'weather://forecast/Oslo' }))).toEqual([
        { kind: 'resourceTemplate', name: 'forecast', uri: 'weather://forecast/Oslo', phase: 'list' },
      ]);
      expect(await after(() => client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Oslo' } }))).toEqual([
        { kind: 'prompt', name: 'forecast_summary', uri: undefined, phase: 'call' },
      ]);
      // Whether the caller may see the prompt is asked first, as in a listing; then the completer runs.
      expect(await after(() => client.complete({ ref: PROMPT_REF, argument: { name: 'city', value: 'O' } }))).toEqual([
        { kind: 'prompt', name: 'forecast_summary', uri: undefined, phase: 'list' },
        { kind: 'completion', name: 'forecast_summary', uri: undefined, phase: 'call' },
      ]);
    });

    it("in the 'list' phase there are no arguments and no context", async () => {
      const client = await connect();

      await client.listResources();
      await client.listResourceTemplates();
      await client.listPrompts();
      await client.subscribeResource({ uri: 'weather://forecast/Oslo' });

      expect(RecordingGuard.seen).toHaveLength(4);
      expect(RecordingGuard.seen.map(({ arguments: args, toolName }) => [args, toolName])).toEqual(
        Array.from({ length: 4 }, () => [undefined, undefined]),
      );
    });

    it("in the 'call' phase guards see a template's matched variables, decoded, and ctx.name is the item's name", async () => {
      const client = await connect();

      await client.readResource({ uri: 'weather://forecast/New%20York' });

      expect(RecordingGuard.seen).toEqual([
        {
          kind: 'resourceTemplate',
          name: 'forecast',
          uri: 'weather://forecast/New%20York',
          phase: 'call',
          arguments: { city: 'New York' },
          toolName: 'forecast',
        },
      ]);
      // Guards get the variables as matched, a plain object; interceptors get them validated, as ForecastVars.
      expect(Object.getPrototypeOf(RecordingGuard.seen[0]!.arguments)).toBe(Object.prototype);
      expect(RecordingInterceptor.seen).toEqual([{ kind: 'resourceTemplate', arguments: { city: 'New York' } }]);
      expect(RecordingInterceptor.seen[0]!.arguments).toBeInstanceOf(ForecastVars);
    });

    it('guards see variables before validation: the ones @IsIn then refuses', async () => {
      const client = await connect();

      expect((await rpcError(client.readResource({ uri: 'weather://forecast/Atlantis' }))).code).toBe(-32602);
      expect(RecordingGuard.seen.map(({ phase, arguments: args }) => ({ phase, arguments: args }))).toEqual([
        { phase: 'call', arguments: { city: 'Atlantis' } },
      ]);
    });

    it("guards see a prompt's arguments as sent, undeclared ones included; interceptors see SummaryArgs", async () => {
      const client = await connect();

      await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Oslo', style: 'brief' } });
      const refused = await rpcError(
        client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Oslo', days: '3' } }),
      );
      expect(refused.code).toBe(-32602);

      expect(RecordingGuard.seen.map(({ arguments: args, toolName }) => ({ arguments: args, toolName }))).toEqual([
        { arguments: { city: 'Oslo', style: 'brief' }, toolName: 'forecast_summary' },
        { arguments: { city: 'Oslo', days: '3' }, toolName: 'forecast_summary' },
      ]);
      expect(Object.getPrototypeOf(RecordingGuard.seen[0]!.arguments)).toBe(Object.prototype);
      expect(RecordingInterceptor.seen).toEqual([{ kind: 'prompt', arguments: { city: 'Oslo', style: 'brief' } }]);
      expect(RecordingInterceptor.seen[0]!.arguments).toBeInstanceOf(SummaryArgs);
    });

    it("a completer method's guards see its McpCompletionRequest; ctx.name is the prompt's name", async () => {
      const client = await connect();

      await client.complete({
        ref: PROMPT_REF,
        argument: { name: 'city', value: 'Os' },
        context: { arguments: { style: 'detailed' } },
      });

      expect(RecordingGuard.seen.filter((seen) => seen.phase === 'call')).toEqual([
        {
          kind: 'completion',
          name: 'forecast_summary',
          uri: undefined,
          phase: 'call',
          arguments: { argument: 'city', value: 'Os', arguments: { style: 'detailed' } },
          toolName: 'forecast_summary',
        },
      ]);
    });
  });
});

// ---- Completion sources of one argument ("Completion"): one completer each; an `enum` gives way. ----

class StyleArgs {
  @IsIn(['brief', 'detailed'])
  style!: string;
}

class CityVars {
  @IsIn(['Lisbon', 'Lima'])
  city!: string;
}

@Injectable()
class EnumGivesWay {
  @McpPrompt({ name: 'styled', description: 'A style', args: StyleArgs })
  styled() {
    return 'A style';
  }

  @McpCompletion({ prompt: 'styled', argument: 'style' })
  styles() {
    return ['terse'];
  }

  @McpResourceTemplate({
    uriTemplate: 'weather://now/{city}',
    name: 'now',
    variables: CityVars,
    complete: { city: ['Oslo', 'Osaka'] },
  })
  now({ city }: CityVars) {
    return city;
  }
}

@Injectable()
class TwoCompletersOfAPrompt {
  @McpPrompt({ name: 'two_completers', description: 'A city', args: SummaryArgs, complete: { city: ['Lisbon'] } })
  prompt() {
    return 'A city';
  }

  @McpCompletion({ prompt: 'two_completers', argument: 'city' })
  cities() {
    return ['Oslo'];
  }
}

@Injectable()
class TwoCompletersOfATemplate {
  @McpResourceTemplate({ uriTemplate: 'weather://radar/{city}', name: 'radar', complete: { city: ['Lisbon'] } })
  radar() {
    return 'radar';
  }

  @McpCompletion({ resourceTemplate: 'weather://radar/{city}', argument: 'city' })
  cities() {
    return ['Oslo'];
  }
}

describe('completion sources for one argument', () => {
  let running: RunningApp | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close();
    await running?.close();
    client = undefined;
    running = undefined;
  });

  it('an @McpCompletion method replaces the @IsIn list; a `complete` entry is used instead of it', async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'example-completers', version: '1.0.0' })],
      providers: [EnumGivesWay],
    });
    client = new Client({ name: 'example-resources', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.mcpUrl)));

    expect(
      await client.complete({ ref: { type: 'ref/prompt', name: 'styled' }, argument: { name: 'style', value: 'b' } }),
    ).toEqual({ completion: { values: ['terse'], total: 1, hasMore: false } });
    expect(
      await client.complete({
        ref: { type: 'ref/resource', uri: 'weather://now/{city}' },
        argument: { name: 'city', value: 'o' },
      }),
    ).toEqual({ completion: { values: ['Oslo', 'Osaka'], total: 2, hasMore: false } });
  });

  it.each<[string, object, string]>([
    [
      'a prompt',
      TwoCompletersOfAPrompt,
      '@McpCompletion() on TwoCompletersOfAPrompt.cities: argument city of prompt two_completers has a completer already',
    ],
    [
      'a template',
      TwoCompletersOfATemplate,
      '@McpCompletion() on TwoCompletersOfATemplate.cities: variable city of weather://radar/{city} has a completer already',
    ],
  ])(
    'a `complete` entry and an @McpCompletion method for one argument of %s fail bootstrap',
    async (_label, provider, message) => {
      const error = await definitionError({
        imports: [McpModule.forRoot({ name: 'example-completers', version: '1.0.0' })],
        providers: [provider as new () => object],
      });

      expect(error.message).toBe(message);
    },
  );
});
