/**
 * The README's "Resources, prompts and completion" example, compiled and served as written: its
 * classes are copied verbatim below (only the imports are added, and a small WeatherService and
 * CITIES supplied), then the official SDK client checks each thing the section says of them.
 * If the README's example changes, change it here too: this file is what keeps it honest.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Injectable,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { Observable } from 'rxjs';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  embeddedText,
  McpCompletion,
  McpDefinitionError,
  McpExecutionContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceRegistry,
  McpResourceTemplate,
  McpSessionRegistry,
  userMessage,
  type McpCompletionRequest,
} from '../../src/index.js';
import { startApp, type RunningApp } from '../utils/start-app.js';

// ---- Supplied: what the README's example leaves to the reader. ----

/** Osaka is known but has no forecast yet: the one city whose read makes the handler return `undefined`. */
const CITIES = ['Lisbon', 'Lima', 'Oslo', 'Osaka', 'New York'];

/**
 * `forecast()` must be typed `string`: the example passes it to `embeddedText(uri, text: string)`, so
 * `string | undefined` does not compile. Indexing a record keeps that type while a missing city is
 * `undefined` at run time, which is what the example's "undefined answers -32002" needs.
 */
const FORECASTS: Record<string, string> = {
  Lisbon: 'Lisbon: sunny, 24 °C',
  Lima: 'Lima: overcast, 19 °C',
  Oslo: 'Oslo: light rain, 9 °C',
  'New York': 'New York: windy, 15 °C',
};

@Injectable()
class WeatherService {
  cities(): string[] {
    return [...CITIES];
  }

  forecast(city: string): string {
    return FORECASTS[city];
  }
}

// ---- Copied verbatim from README.md, "Resources, prompts and completion". ----

export class ForecastVars {
  @IsIn(CITIES) // an `enum` in the schema: `city` completes from it without a completer
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
    return this.weather.forecast(city); // undefined answers -32002 (resource not found)
  }

  @McpPrompt({ name: 'forecast_summary', description: 'Summarise the forecast of a city', args: SummaryArgs })
  summary({ city, style }: SummaryArgs) {
    return [
      userMessage(embeddedText(`weather://forecast/${city}`, this.weather.forecast(city))),
      userMessage(`Summarise the forecast above for a traveller${style === 'brief' ? ', in one sentence' : ''}.`),
    ];
  }

  @McpCompletion({ prompt: 'forecast_summary', argument: 'city' })
  completeCity({ value }: McpCompletionRequest) {
    return this.weather.cities().filter((city) => city.toLowerCase().startsWith(value.toLowerCase()));
  }
}

// ---- Copied from the "Subscriptions" paragraph (the constructor and method, in a class of their own). ----

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
  readonly arguments?: object;
}

/** Lets everything through, writing down what `McpExecutionContext` says of each MCP pass. */
@Injectable()
class RecordingGuard implements CanActivate {
  static readonly seen: Seen[] = [];

  canActivate(context: ExecutionContext): boolean {
    if (McpExecutionContext.isMcp(context)) {
      const mcp = McpExecutionContext.of(context);
      RecordingGuard.seen.push({
        kind: mcp.kind,
        name: mcp.name,
        uri: mcp.uri,
        phase: mcp.phase,
        arguments: mcp.arguments,
      });
    }
    return true;
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

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await delay(10);
  }
}

/** The JSON-RPC error a rejected SDK request carried; fails if it resolved. */
async function rpcError(request: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  const error = await request.then(
    (value) => {
      throw new Error(`expected an error, got ${JSON.stringify(value)}`);
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(McpError);
  const { code, message, data } = error as McpError;
  return { code, message, data };
}

describe('README: the resources, prompts and completion example, served (official SDK client)', () => {
  let running: RunningApp;
  let sessions: McpSessionRegistry;
  const connected: { client: Client; transport: StreamableHTTPClientTransport }[] = [];

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'readme-example', version: '1.0.0' })],
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
  });

  afterEach(async () => {
    // Ended, not just left, so that no session stays subscribed into the next test.
    await Promise.all(
      connected.splice(0).map(async ({ client, transport }) => {
        await transport.terminateSession();
        await client.close();
      }),
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  async function connect(prepare?: (client: Client) => void): Promise<Client> {
    const client = new Client({ name: 'readme-examples', version: '1.0.0' });
    prepare?.(client);
    const transport = new StreamableHTTPClientTransport(new URL(running.mcpUrl));
    connected.push({ client, transport });
    await client.connect(transport);
    return client;
  }

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

    it('answers -32002 with the URI in data when the method returns undefined (a known city without forecast)', async () => {
      const client = await connect();

      expect(await rpcError(client.readResource({ uri: 'weather://forecast/Osaka' }))).toEqual({
        code: -32002,
        message: 'MCP error -32002: Resource not found',
        data: { uri: 'weather://forecast/Osaka' },
      });
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
    });

    it('answers -32002 for a URI nothing serves', async () => {
      const client = await connect();

      expect(await rpcError(client.readResource({ uri: 'weather://forecast/Lisbon/tomorrow' }))).toEqual({
        code: -32002,
        message: 'MCP error -32002: Resource not found',
        data: { uri: 'weather://forecast/Lisbon/tomorrow' },
      });
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

    it('embeds the forecast under the same URI a read of it answers, for a plain city', async () => {
      const client = await connect();
      const read = await client.readResource({ uri: 'weather://forecast/Lima' });
      const prompt = await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Lima' } });

      expect(prompt.messages[0]!.content).toEqual({ type: 'resource', resource: read.contents[0] });
    });

    it('embeds a multi-word city under an unencoded URI: not the one clients read and subscribe to, and one the server refuses', async () => {
      const client = await connect();
      const prompt = await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'New York' } });

      expect(prompt.messages[0]!.content).toEqual({
        type: 'resource',
        resource: { uri: 'weather://forecast/New York', text: 'New York: windy, 15 °C' },
      });
      expect(await rpcError(client.readResource({ uri: 'weather://forecast/New York' }))).toEqual({
        code: -32602,
        message: 'MCP error -32602: Invalid params: uri must be an absolute URI of at most 8192 characters',
        data: undefined,
      });
    });

    it('answers -32603 for a known city without forecast: embeddedText() refuses undefined text', async () => {
      const client = await connect();

      expect(await rpcError(client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Osaka' } }))).toEqual({
        code: -32603,
        message: 'MCP error -32603: Internal error',
        data: undefined,
      });
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
  });

  describe('completion', () => {
    it.each<[string, string[]]>([
      ['', CITIES],
      ['l', ['Lisbon', 'Lima']],
      ['OS', ['Oslo', 'Osaka']],
      ['new', ['New York']],
      ['x', []],
    ])('completes the prompt city %j with the @McpCompletion method', async (value, values) => {
      const client = await connect();

      expect(await client.complete({ ref: PROMPT_REF, argument: { name: 'city', value } })).toEqual({
        completion: { values, total: values.length, hasMore: false },
      });
      // The method ran (behind its own pipeline), not a list: it is the only completer SummaryArgs.city has.
      expect(RecordingGuard.seen).toContainEqual({
        kind: 'completion',
        name: 'forecast_summary',
        uri: undefined,
        phase: 'call',
      });
    });

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
      expect(RecordingGuard.seen.filter((seen) => seen.kind === 'completion')).toEqual([]);
    });

    it('passes the completer what the user filled in already as `arguments`', async () => {
      const client = await connect();
      RecordingInterceptor.seen.length = 0;

      await client.complete({
        ref: PROMPT_REF,
        argument: { name: 'city', value: 'Li' },
        context: { arguments: { style: 'brief' } },
      });

      expect(RecordingInterceptor.seen).toEqual([
        { kind: 'completion', arguments: { argument: 'city', value: 'Li', arguments: { style: 'brief' } } },
      ]);
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
      const [first, second] = connected.map(({ transport }) => sessions.get(transport.sessionId!)!);

      expect(await subscriber.subscribeResource({ uri: 'weather://forecast/New%20York' })).toEqual({});
      await until(() => first!.hasStream && second!.hasStream, 'the GET streams of both SDK clients');
      running.app.get(ForecastUpdates).onRefreshed('New York');

      await until(() => updated.length > 0, 'resources/updated');
      expect(updated).toEqual(['weather://forecast/New%20York']);
      // What the snippet calls, once more: it counts the sessions told, the bystander not among them.
      expect(running.app.get(McpResourceRegistry).notifyUpdated('weather://forecast/New%20York')).toBe(1);
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
        message: 'MCP error -32002: Resource not found',
        data: { uri: 'weather://nowhere' },
      });
    });
  });

  describe('guards and context: what McpExecutionContext tells', () => {
    it('kind, name, uri and phase for a listing, a read, a subscription, a prompt and a completion', async () => {
      const client = await connect();
      const everything: Seen[] = [];
      const seenAfter = async (action: () => Promise<unknown>): Promise<Seen[]> => {
        RecordingGuard.seen.length = 0;
        await action();
        everything.push(...RecordingGuard.seen);
        return RecordingGuard.seen.map(({ kind, name, uri, phase }) => ({ kind, name, uri, phase }));
      };

      expect(await seenAfter(() => client.listResources())).toEqual([
        { kind: 'resource', name: 'cities', uri: 'weather://cities', phase: 'list' },
      ]);
      expect(await seenAfter(() => client.listResourceTemplates())).toEqual([
        { kind: 'resourceTemplate', name: 'forecast', uri: undefined, phase: 'list' },
      ]);
      expect(await seenAfter(() => client.readResource({ uri: 'weather://forecast/Oslo' }))).toEqual([
        { kind: 'resourceTemplate', name: 'forecast', uri: 'weather://forecast/Oslo', phase: 'call' },
      ]);
      expect(await seenAfter(() => client.subscribeResource({ uri: 'weather://forecast/Oslo' }))).toEqual([
        { kind: 'resourceTemplate', name: 'forecast', uri: 'weather://forecast/Oslo', phase: 'list' },
      ]);
      expect(
        await seenAfter(() => client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Oslo' } })),
      ).toEqual([{ kind: 'prompt', name: 'forecast_summary', uri: undefined, phase: 'call' }]);
      // Whether the caller may see the prompt is asked first, as in a listing; then the completer runs.
      expect(
        await seenAfter(() => client.complete({ ref: PROMPT_REF, argument: { name: 'city', value: 'O' } })),
      ).toEqual([
        { kind: 'prompt', name: 'forecast_summary', uri: undefined, phase: 'list' },
        { kind: 'completion', name: 'forecast_summary', uri: undefined, phase: 'call' },
      ]);
      // Unlike a tool's guards in a call, these never see arguments, even in the 'call' phase.
      expect(everything).toHaveLength(7);
      expect(everything.map((seen) => seen.arguments)).toEqual(Array.from({ length: 7 }, () => undefined));
    });
  });
});

/** One completer per argument: the README's "order of precedence" holds only against an `enum`. */
class CityOnly {
  @IsString()
  city!: string;
}

@Injectable()
class TwoCompleters {
  @McpPrompt({ name: 'two_completers', description: 'A city', args: CityOnly, complete: { city: ['Lisbon'] } })
  prompt() {
    return 'A city';
  }

  @McpCompletion({ prompt: 'two_completers', argument: 'city' })
  cities() {
    return ['Oslo'];
  }
}

describe('README: completion sources for one argument', () => {
  it('an @McpCompletion method beside a `complete` entry fails bootstrap instead of taking precedence', async () => {
    const started = startApp({
      imports: [McpModule.forRoot({ name: 'readme-completers', version: '1.0.0' })],
      providers: [TwoCompleters],
    });

    await expect(started).rejects.toThrow(
      new McpDefinitionError(
        '@McpCompletion() on TwoCompleters.cities: argument city of prompt two_completers has a completer already',
      ),
    );
  });
});
