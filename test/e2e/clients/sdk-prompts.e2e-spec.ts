/**
 * Prompts and completion with the official SDK client over real HTTP: listing (DTO and declared
 * arguments), rendering every shape of result, completion of prompt arguments and template
 * variables from every kind of completer, guards on prompts and completers, an interceptor and a
 * pipe, runtime prompts and their list_changed news, and pagination.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  type CompleteRequest,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';
import { McpDefinitionError, McpModule, McpPromptRegistry } from '../../../src/index.js';
import { FixtureBearerGuard } from '../../fixtures/pipeline.tools.js';
import {
  AIRPORT_CITIES,
  FORECAST_TEMPLATE,
  NamedTemplates,
  PagedCatalogue,
  PAGED_PROMPTS,
  PNG_SIGNATURE,
  PROMPT_SECRET,
  PromptJournal,
  promptsApp,
  stationName,
  STATION_COUNT,
} from '../../fixtures/prompts.fixture.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';
import { mcpErrorOf } from '../../utils/thrown.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { type ClientSession as McpSession, SessionStore } from '../../internals/index.js';

const CLIENT_INFO = { name: 'sdk-prompts-e2e', version: '1.0.0' };

type Token = 'reader-token' | 'admin-token';

function expectRpcError(error: McpError, code: number, message: string): void {
  expect({ code: error.code, message: error.message, data: error.data }).toEqual({
    code,
    message: `MCP error ${code}: ${message}`,
    data: undefined,
  });
}

const promptRef = (name: string): CompleteRequest['params']['ref'] => ({ type: 'ref/prompt', name });

describe('prompts and completion with the official SDK client (e2e)', () => {
  const sdk = useSdkClients();

  const connect = (running: RunningApp, token: Token = 'reader-token', prepare?: (client: Client) => void) =>
    sdk.connect(running.mcpUrl, { info: CLIENT_INFO, headers: { authorization: `Bearer ${token}` }, prepare });

  describe('the prompts app', () => {
    let running: RunningApp;
    let journal: PromptJournal;

    beforeAll(async () => {
      running = await startApp(promptsApp('sdk-prompts-e2e'));
      journal = running.app.get(PromptJournal);
    });

    beforeEach(() => journal.reset());

    afterAll(async () => {
      await running.close();
    });

    const complete = (client: Client, params: CompleteRequest['params']) => client.complete(params);

    describe('prompts/list and prompts/get', () => {
      test('lists each prompt with its title, description and arguments, from a DTO or a declared list', async () => {
        const { client } = await connect(running);
        const { prompts, nextCursor } = await client.listPrompts();
        expect(nextCursor).toBeUndefined();

        const byName = new Map(prompts.map((prompt) => [prompt.name, prompt]));
        // admin_briefing is hidden from a reader (see the guard tests).
        expect(prompts.map((prompt) => prompt.name)).toEqual([
          'plan_trip',
          'code_review',
          'release_notes',
          'support_ticket',
          'shout',
          'pick_station',
          'crash',
          'refuse',
          'system_role',
          'slow_prompt',
          'wait_for_cancel',
        ]);
        expect(byName.get('plan_trip')).toEqual<Prompt>({
          name: 'plan_trip',
          title: 'Plan a trip',
          description: 'Plans a trip to a city',
          arguments: [
            { name: 'city', description: 'The city to visit', required: true },
            { name: 'days', description: 'How many days the trip lasts', required: false },
            { name: 'mode', description: 'How to travel', required: true },
          ],
        });
        expect(byName.get('code_review')).toEqual<Prompt>({
          name: 'code_review',
          title: 'Code review',
          description: 'Reviews a piece of code',
          arguments: [
            // The argument's title is sent (see items/prompts.e2e-spec.ts), but this SDK's schema drops it.
            { name: 'language', description: 'The language of the code', required: true },
            { name: 'code', description: 'The code to review', required: true },
            { name: 'focus', description: 'What to pay attention to', required: false },
          ],
        });
        // A prompt without arguments advertises none.
        expect(byName.get('crash')).toEqual<Prompt>({
          name: 'crash',
          description: 'Throws an error with a secret in it',
        });
      });

      test('renders a DTO prompt: the values reach the handler as the DTO, the description is the prompt’s', async () => {
        const { client } = await connect(running);
        expect(
          await client.getPrompt({ name: 'plan_trip', arguments: { city: 'Lisbon', days: '3', mode: 'train' } }),
        ).toEqual({
          description: 'Plans a trip to a city',
          messages: [
            { role: 'user', content: { type: 'text', text: 'Plan a 3-day trip to Lisbon by train (TripArgs).' } },
          ],
        });
        // The optional argument may be left out.
        expect(await client.getPrompt({ name: 'plan_trip', arguments: { city: 'Porto', mode: 'Boat' } })).toEqual({
          description: 'Plans a trip to a city',
          messages: [
            { role: 'user', content: { type: 'text', text: 'Plan a few-day trip to Porto by Boat (TripArgs).' } },
          ],
        });
        expect(journal.rendered.get('plan_trip')).toBe(2);
      });

      test('renders mixed messages: user and assistant helpers, an embedded resource, an image, a block, a string', async () => {
        const { client } = await connect(running);
        const result = await client.getPrompt({
          name: 'code_review',
          arguments: { language: 'Go', code: 'func main() {}', focus: 'security' },
        });
        expect(result).toEqual({
          description: 'Reviews a piece of code',
          messages: [
            { role: 'user', content: { type: 'text', text: 'Review this Go code, focusing on security.' } },
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: { uri: 'file:///review/snippet.go', text: 'func main() {}', mimeType: 'text/plain' },
              },
            },
            {
              role: 'user',
              content: { type: 'image', data: PNG_SIGNATURE.toString('base64'), mimeType: 'image/png' },
            },
            { role: 'assistant', content: { type: 'text', text: 'I will go through it line by line.' } },
            { role: 'user', content: { type: 'text', text: 'A bare content block is a user message.' } },
            { role: 'user', content: { type: 'text', text: 'So is a string.' } },
          ],
        });
        expect(PNG_SIGNATURE.toString('base64')).toBe('iVBORw0KGgo=');
      });

      test('a prompt returning a full { description, messages } keeps its own description', async () => {
        const { client } = await connect(running);
        expect(await client.getPrompt({ name: 'release_notes', arguments: { version: '2.0.0' } })).toEqual({
          description: 'Release notes for 2.0.0',
          messages: [
            { role: 'user', content: { type: 'text', text: 'Draft the release notes of 2.0.0.' } },
            { role: 'assistant', content: { type: 'text', text: 'Here are the notes of 2.0.0:' } },
          ],
        });
      });

      test('errors reach the SDK as McpError: unknown prompt, invalid arguments, a crash that leaks nothing', async () => {
        const { client } = await connect(running);
        expectRpcError(
          await mcpErrorOf(client.getPrompt({ name: 'nope' })),
          ErrorCode.InvalidParams,
          'Invalid params: Unknown prompt: nope',
        );
        expectRpcError(
          await mcpErrorOf(client.getPrompt({ name: 'plan_trip', arguments: { city: 'Lisbon' } })),
          ErrorCode.InvalidParams,
          'Invalid params: invalid arguments for prompt plan_trip: mode: mode must be one of the following values: train, plane, bus, Boat',
        );

        const crash = await mcpErrorOf(client.getPrompt({ name: 'crash' }));
        expectRpcError(crash, ErrorCode.InternalError, 'Internal error');
        expect(crash.message).not.toContain(PROMPT_SECRET);
      });
    });

    describe('completion/complete', () => {
      test('an @McpCompletion method completes a prompt argument from the value and context.arguments', async () => {
        const { client } = await connect(running);
        expect(await complete(client, { ref: promptRef('plan_trip'), argument: { name: 'city', value: 'p' } })).toEqual(
          {
            completion: { values: ['Porto', 'Paris', 'Prague'], total: 3, hasMore: false },
          },
        );
        expect(
          await complete(client, {
            ref: promptRef('plan_trip'),
            argument: { name: 'city', value: 'P' },
            context: { arguments: { mode: 'plane', days: '2' } },
          }),
        ).toEqual({ completion: { values: ['Porto', 'Paris'], total: 2, hasMore: false } });
        expect(
          await complete(client, {
            ref: promptRef('plan_trip'),
            argument: { name: 'city', value: '' },
            context: { arguments: { mode: 'plane' } },
          }),
        ).toEqual({ completion: { values: [...AIRPORT_CITIES], total: 4, hasMore: false } });

        expect(journal.completionRequests).toEqual([
          { completer: 'cities', request: { argument: 'city', value: 'p', arguments: {} } },
          { completer: 'cities', request: { argument: 'city', value: 'P', arguments: { mode: 'plane', days: '2' } } },
          { completer: 'cities', request: { argument: 'city', value: '', arguments: { mode: 'plane' } } },
        ]);
      });

      test('the complete option: a fixed list filtered by case-insensitive prefix, and a function', async () => {
        const { client } = await connect(running);
        const language = (value: string) =>
          complete(client, { ref: promptRef('code_review'), argument: { name: 'language', value } });

        expect(await language('t')).toEqual({
          completion: { values: ['TypeScript', 'tsx'], total: 2, hasMore: false },
        });
        expect(await language('TS')).toEqual({ completion: { values: ['tsx'], total: 1, hasMore: false } });
        expect(await language('PY')).toEqual({ completion: { values: ['Python'], total: 1, hasMore: false } });
        expect(await language('')).toEqual({
          completion: { values: ['TypeScript', 'Python', 'Go', 'Rust', 'tsx'], total: 5, hasMore: false },
        });
        expect(await language('java')).toEqual({ completion: { values: [], total: 0, hasMore: false } });

        expect(
          await complete(client, {
            ref: promptRef('code_review'),
            argument: { name: 'focus', value: '' },
            context: { arguments: { language: 'Rust' } },
          }),
        ).toEqual({ completion: { values: ['Rust idioms', 'security', 'performance'], total: 3, hasMore: false } });
        expect(
          await complete(client, { ref: promptRef('code_review'), argument: { name: 'focus', value: 'GEN' } }),
        ).toEqual({ completion: { values: ['generic idioms'], total: 1, hasMore: false } });
      });

      test('an @IsIn argument of the DTO completes from its allowed values, with no completer declared', async () => {
        const { client } = await connect(running);
        const mode = (value: string) =>
          complete(client, { ref: promptRef('plan_trip'), argument: { name: 'mode', value } });
        expect(await mode('')).toEqual({
          completion: { values: ['train', 'plane', 'bus', 'Boat'], total: 4, hasMore: false },
        });
        expect(await mode('b')).toEqual({ completion: { values: ['bus', 'Boat'], total: 2, hasMore: false } });
        expect(await mode('PL')).toEqual({ completion: { values: ['plane'], total: 1, hasMore: false } });
      });

      test('a resource template variable completes, from the complete option and from an @McpCompletion method', async () => {
        const { client } = await connect(running);
        const ref = { type: 'ref/resource' as const, uri: FORECAST_TEMPLATE };
        expect(await complete(client, { ref, argument: { name: 'day', value: 'T' } })).toEqual({
          completion: { values: ['tuesday', 'thursday'], total: 2, hasMore: false },
        });
        expect(await complete(client, { ref, argument: { name: 'city', value: 'l' } })).toEqual({
          completion: { values: ['Lisbon', 'London', 'Lyon'], total: 3, hasMore: false },
        });
        // The completer method's guard ran as a completion of the template.
        expect(journal.guardChecks).toEqual([
          {
            type: 'mcp',
            kind: 'completion',
            name: 'city_forecast',
            phase: 'call',
            // A completion reads no URI: the template is named by `name`.
            uri: undefined,
            handler: 'cities',
            user: 'reader',
            allowed: true,
          },
        ]);
        expectRpcError(
          await mcpErrorOf(
            complete(client, {
              ref: { type: 'ref/resource', uri: 'weather://nope/{x}' },
              argument: { name: 'x', value: '' },
            }),
          ),
          ErrorCode.InvalidParams,
          'Invalid params: Unknown resource template: weather://nope/{x}',
        );
      });

      test('more than 100 candidates: the first 100, total the full count, hasMore true', async () => {
        const { client } = await connect(running);
        const result = await complete(client, {
          ref: promptRef('pick_station'),
          argument: { name: 'station', value: '' },
        });
        expect(result).toEqual({
          completion: {
            values: Array.from({ length: 100 }, (_, index) => stationName(index)),
            total: STATION_COUNT,
            hasMore: true,
          },
        });
      });

      test('an argument without a completer gets no values', async () => {
        const { client } = await connect(running);
        expect(
          await complete(client, { ref: promptRef('pick_station'), argument: { name: 'note', value: 'x' } }),
        ).toEqual({ completion: { values: [] } });
        expect(await complete(client, { ref: promptRef('plan_trip'), argument: { name: 'days', value: '' } })).toEqual({
          completion: { values: [] },
        });
      });

      test('unknown prompt and undeclared argument are -32602; a completer that throws is -32603 and leaks nothing', async () => {
        const { client } = await connect(running);
        expectRpcError(
          await mcpErrorOf(complete(client, { ref: promptRef('nope'), argument: { name: 'city', value: '' } })),
          ErrorCode.InvalidParams,
          'Invalid params: Unknown prompt: nope',
        );
        expectRpcError(
          await mcpErrorOf(complete(client, { ref: promptRef('plan_trip'), argument: { name: 'country', value: '' } })),
          ErrorCode.InvalidParams,
          'Invalid params: plan_trip has no argument country',
        );
        const crash = await mcpErrorOf(
          complete(client, { ref: promptRef('pick_station'), argument: { name: 'platform', value: '' } }),
        );
        expectRpcError(crash, ErrorCode.InternalError, 'Internal error');
        expect(crash.message).not.toContain(PROMPT_SECRET);
        // The session is unharmed.
        expect(
          (await complete(client, { ref: promptRef('code_review'), argument: { name: 'language', value: 'g' } }))
            .completion.values,
        ).toEqual(['Go']);
      });
    });

    describe('guards, interceptors and pipes', () => {
      test('a prompt its guard hides is not listed, and get and complete answer exactly as for an unknown prompt', async () => {
        const { client } = await connect(running, 'reader-token');
        const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
        expect(names).not.toContain('admin_briefing');

        expectRpcError(
          await mcpErrorOf(client.getPrompt({ name: 'admin_briefing', arguments: { topic: 'budget' } })),
          ErrorCode.InvalidParams,
          'Invalid params: Unknown prompt: admin_briefing',
        );
        expectRpcError(
          await mcpErrorOf(
            complete(client, { ref: promptRef('admin_briefing'), argument: { name: 'topic', value: '' } }),
          ),
          ErrorCode.InvalidParams,
          'Invalid params: Unknown prompt: admin_briefing',
        );
        // Even an undeclared argument: the hidden prompt does not betray which arguments it has.
        expectRpcError(
          await mcpErrorOf(
            complete(client, { ref: promptRef('admin_briefing'), argument: { name: 'zzz', value: '' } }),
          ),
          ErrorCode.InvalidParams,
          'Invalid params: Unknown prompt: admin_briefing',
        );
        expect(journal.rendered.get('admin_briefing')).toBeUndefined();
      });

      test('the same prompt is listed, rendered and completed for a caller its guard admits', async () => {
        const { client } = await connect(running, 'admin-token');
        const listed = (await client.listPrompts()).prompts.find((prompt) => prompt.name === 'admin_briefing');
        expect(listed).toEqual({
          name: 'admin_briefing',
          description: 'Briefs an administrator',
          arguments: [{ name: 'topic', required: true }],
        });
        expect(await client.getPrompt({ name: 'admin_briefing', arguments: { topic: 'budget' } })).toEqual({
          description: 'Briefs an administrator',
          messages: [{ role: 'user', content: { type: 'text', text: 'Brief me on budget.' } }],
        });
        expect(
          await complete(client, { ref: promptRef('admin_briefing'), argument: { name: 'topic', value: 'r' } }),
        ).toEqual({ completion: { values: ['roadmap'], total: 1, hasMore: false } });
        expect(journal.rendered.get('admin_briefing')).toBe(1);
      });

      test('a guard on the @McpCompletion method itself denying gives empty values; admitting gives them', async () => {
        const reader = (await connect(running, 'reader-token')).client;
        const admin = (await connect(running, 'admin-token')).client;
        const params = { ref: promptRef('support_ticket'), argument: { name: 'product', value: 'mcp' } };

        expect(await complete(reader, params)).toEqual({ completion: { values: [] } });
        expect(await complete(admin, params)).toEqual({
          completion: { values: ['mcp42', 'mcp-inspector'], total: 2, hasMore: false },
        });
        // The prompt itself is not guarded: the reader may still render it.
        expect((await reader.getPrompt({ name: 'support_ticket', arguments: { product: 'nest' } })).messages).toEqual([
          { role: 'user', content: { type: 'text', text: 'Open a ticket about nest.' } },
        ]);
      });

      test("McpExecutionContext in a guard: kind 'prompt' while listing and getting, 'completion' for the completer", async () => {
        const { client } = await connect(running, 'reader-token');
        const check = (kind: string, phase: string, handler: string) => ({
          type: 'mcp',
          kind,
          name: 'plan_trip',
          phase,
          uri: undefined,
          handler,
          user: 'reader',
          allowed: true,
        });

        await client.listPrompts();
        expect(journal.guardChecks.filter((entry) => entry.name === 'plan_trip')).toEqual([
          check('prompt', 'list', 'planTrip'),
        ]);
        journal.reset();

        await client.getPrompt({ name: 'plan_trip', arguments: { city: 'Lyon', mode: 'bus' } });
        expect(journal.guardChecks).toEqual([check('prompt', 'call', 'planTrip')]);
        journal.reset();

        await complete(client, { ref: promptRef('plan_trip'), argument: { name: 'city', value: 'L' } });
        // The prompt's guard decides whether the caller may see it, then the completer's own guard runs.
        expect(journal.guardChecks).toEqual([
          check('prompt', 'list', 'planTrip'),
          check('completion', 'call', 'cities'),
        ]);
      });

      test('an interceptor and a method pipe on a prompt apply: the pipe transforms the arguments, the interceptor the result', async () => {
        const { client } = await connect(running);
        expect(await client.getPrompt({ name: 'shout', arguments: { text: 'hello' } })).toEqual({
          description: 'shout (intercepted)',
          messages: [
            { role: 'user', content: { type: 'text', text: 'Say "HELLO" (ShoutArgs).' } },
            { role: 'assistant', content: { type: 'text', text: 'Understood.' } },
          ],
        });
        expect(journal.intercepted).toEqual([
          { type: 'mcp', kind: 'prompt', name: 'shout', phase: 'call', arguments: { text: 'hello' } },
        ]);
        expect(journal.piped).toEqual([{ type: 'custom', metatype: 'ShoutArgs', value: { text: 'hello' } }]);

        // Invalid arguments never reach the interceptor or the pipe.
        const error = await mcpErrorOf(client.getPrompt({ name: 'shout', arguments: { text: '' } }));
        expect(error.code).toBe(ErrorCode.InvalidParams);
        expect(journal.intercepted).toHaveLength(1);
        expect(journal.piped).toHaveLength(1);
      });
    });

    describe('runtime prompts', () => {
      let prompts: McpPromptRegistry;
      let sessions: SessionStore;

      beforeAll(() => {
        prompts = running.app.get(McpPromptRegistry);
        sessions = running.app.get(SessionStore);
      });

      afterEach(() => {
        for (const name of ['runtime_one', 'runtime_two']) prompts.remove(name);
      });

      test('addPrompt and removePrompt while a GET stream is open: one notifications/prompts/list_changed per burst', async () => {
        let changes = 0;
        const markers: unknown[] = [];
        const { client, transport } = await connect(running, 'reader-token', (c) => {
          c.setNotificationHandler(PromptListChangedNotificationSchema, () => {
            changes++;
          });
          c.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
            markers.push(notification.params.data);
          });
        });
        await client.setLoggingLevel('info');
        const session = (): McpSession => sessions.get(transport.sessionId!)!;
        // The SDK opens its GET stream in the background after connecting.
        await until(() => sessions.get(transport.sessionId!)?.hasStream === true, 'the GET stream of the SDK client');
        // Everything sent on the GET stream before the marker has arrived once the marker has.
        const sync = async (n: number) => {
          expect(session().log('info', `marker ${n}`)).toBe(true);
          await until(() => markers.includes(`marker ${n}`), `marker ${n}`);
        };

        // Additions that fail change nothing, and announce nothing.
        expect(() => prompts.add({ name: 'plan_trip', description: 'Taken' }, () => 'taken')).toThrow(
          new McpDefinitionError(
            'Prompt name "plan_trip" is used twice: by TravelPrompts.planTrip and by runtime prompt plan_trip',
          ),
        );
        expect(() => prompts.add({ name: 'runtime_one', description: '' }, () => 'mute')).toThrow(McpDefinitionError);
        expect(prompts.has('runtime_one')).toBe(false);
        await sync(0);
        expect(changes).toBe(0);

        // One burst: two additions in one tick.
        prompts.add({ name: 'runtime_one', description: 'Added at run time' }, () => 'one');
        prompts.add(
          { name: 'runtime_two', description: 'Added at run time too', args: [{ name: 'who', required: true }] },
          ({ who }: Record<string, string>) => `hello ${who}`,
        );
        await sync(1);
        expect(changes).toBe(1);
        const listed = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
        expect(listed.slice(-2)).toEqual(['runtime_one', 'runtime_two']);
        expect(await client.getPrompt({ name: 'runtime_two', arguments: { who: 'Ada' } })).toEqual({
          description: 'Added at run time too',
          messages: [{ role: 'user', content: { type: 'text', text: 'hello Ada' } }],
        });

        // A second burst: both removed, one more notification.
        expect(prompts.remove('runtime_one')).toBe(true);
        expect(prompts.remove('runtime_two')).toBe(true);
        expect(prompts.remove('runtime_two')).toBe(false);
        await sync(2);
        expect(changes).toBe(2);
        expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain('runtime_one');
        expectRpcError(
          await mcpErrorOf(client.getPrompt({ name: 'runtime_one' })),
          ErrorCode.InvalidParams,
          'Invalid params: Unknown prompt: runtime_one',
        );
      });

      test('a runtime prompt with the complete option is completable', async () => {
        const asked: unknown[] = [];
        prompts.add(
          {
            name: 'runtime_one',
            description: 'Completable at run time',
            args: [{ name: 'colour', required: true }, { name: 'shade' }],
            complete: {
              colour: ['Red', 'green', 'Blue', 'grey'],
              shade: (request) => {
                asked.push(request);
                return [`${request.arguments.colour ?? 'any'}-light`, `${request.arguments.colour ?? 'any'}-dark`];
              },
            },
          },
          ({ colour }: Record<string, string>) => colour,
        );
        expect(prompts.has('runtime_one')).toBe(true);
        const { client } = await connect(running);

        expect(
          await complete(client, { ref: promptRef('runtime_one'), argument: { name: 'colour', value: 'G' } }),
        ).toEqual({ completion: { values: ['green', 'grey'], total: 2, hasMore: false } });
        expect(
          await complete(client, {
            ref: promptRef('runtime_one'),
            argument: { name: 'shade', value: 'x' },
            context: { arguments: { colour: 'Red' } },
          }),
        ).toEqual({ completion: { values: ['Red-light', 'Red-dark'], total: 2, hasMore: false } });
        expect(asked).toEqual([{ argument: 'shade', value: 'x', arguments: { colour: 'Red' } }]);
      });
    });
  });

  describe('the context of a template variable’s completer', () => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await startApp({
        imports: [McpModule.forRoot({ name: 'sdk-prompts-named-templates', version: '1.0.0' })],
        providers: [NamedTemplates],
      });
    });

    afterAll(async () => {
      await running.close();
    });

    // A completer of a template variable gets the template's name as ctx.name, not the URI
    // template the client referred to (CompletionService renames the context once admitted).
    it.each([
      ['a complete option function', 'named://city/{name}', 'named_city'],
      ['an @McpCompletion() method', 'named://town/{name}', 'named_town'],
    ])("%s sees the template's name as ctx.name", async (_label, uri, name) => {
      const { client } = await connect(running);
      const result = await client.complete({
        ref: { type: 'ref/resource', uri },
        argument: { name: 'name', value: '' },
      });
      expect(result.completion).toEqual({ values: [name], total: 1, hasMore: false });
    });
  });

  describe('pagination, pageSize 2', () => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await startApp({
        imports: [
          McpModule.forRoot({
            name: 'sdk-prompts-pages',
            version: '1.0.0',
            guards: [FixtureBearerGuard],
            limits: { pageSize: 2 },
          }),
        ],
        providers: [PagedCatalogue],
      });
    });

    afterAll(async () => {
      await running.close();
    });

    test('following nextCursor gets every prompt exactly once, in pages of 2, 2 and 1', async () => {
      const { client } = await connect(running);
      const pages: Prompt[][] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
        pages.push(page.prompts);
        cursor = page.nextCursor;
        expect(pages.length).toBeLessThan(10);
      } while (cursor !== undefined);

      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      const names = pages.flat().map((prompt) => prompt.name);
      expect(names).toEqual([...PAGED_PROMPTS]);
      expect(new Set(names).size).toBe(names.length);
    });

    test('a tools/list or resources/list cursor given to prompts/list is -32602 invalid cursor', async () => {
      const { client } = await connect(running);
      const tools = await client.listTools();
      const resources = await client.listResources();
      expect(tools.nextCursor).toEqual(expect.any(String));
      expect(resources.nextCursor).toEqual(expect.any(String));

      for (const cursor of [tools.nextCursor!, resources.nextCursor!]) {
        expectRpcError(
          await mcpErrorOf(client.listPrompts({ cursor })),
          ErrorCode.InvalidParams,
          'Invalid params: invalid cursor',
        );
      }
      // A prompts cursor of another session is refused too, and the cursor works for its own session.
      const first = await client.listPrompts();
      const other = (await connect(running)).client;
      expectRpcError(
        await mcpErrorOf(other.listPrompts({ cursor: first.nextCursor! })),
        ErrorCode.InvalidParams,
        'Invalid params: invalid cursor',
      );
      expect((await client.listPrompts({ cursor: first.nextCursor! })).prompts.map((prompt) => prompt.name)).toEqual([
        'charlie',
        'delta',
      ]);
    });
  });
});
