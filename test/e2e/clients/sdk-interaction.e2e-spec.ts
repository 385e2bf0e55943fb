/**
 * The server → client features with the official MCP TypeScript SDK as the client, over real HTTP:
 * progress callbacks, cancellation through an AbortSignal, elicitation, sampling and roots handled
 * by the client, list_changed and log notifications.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { McpModule, McpToolRegistry } from '../../../src/index.js';
import { InteractionProbe, InteractionTools } from '../../fixtures/interaction.tools.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';
import { onlyText } from '../../utils/tool-results.js';
import { thrown } from '../../utils/thrown.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { type ClientSession as McpSession, SessionStore } from '../../internals/index.js';

describe('official MCP SDK client: server → client interaction (e2e)', () => {
  let running: RunningApp;
  let probe: InteractionProbe;
  let sessions: SessionStore;
  const sdk = useSdkClients();

  beforeAll(async () => {
    running = await startApp({
      imports: [
        McpModule.forRoot({
          name: 'sdk-interaction-e2e',
          version: '1.0.0',
          sessions: { clientRequestTimeoutMs: 2000 },
        }),
      ],
      providers: [InteractionTools, InteractionProbe],
    });
    probe = running.app.get(InteractionProbe);
    sessions = running.app.get(SessionStore);
  });

  afterEach(() => {
    for (const session of sessions.all()) session.end('deleted');
    probe.reset();
  });

  afterAll(async () => {
    await running?.close();
  });

  /** A client declaring `capabilities`; `prepare` sets its handlers before it connects. */
  async function connect(
    capabilities: ClientCapabilities = {},
    prepare: (client: Client) => void = () => undefined,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport; session: () => McpSession }> {
    const { client, transport } = await sdk.connect(running.mcpUrl, {
      info: { name: 'sdk-interaction-client', version: '1.0.0' },
      capabilities,
      prepare,
    });
    const session = (): McpSession => {
      const found = sessions.get(transport.sessionId!);
      expect(found).toBeDefined();
      return found!;
    };
    return { client, transport, session };
  }

  it('calls onprogress for every step a tool reports, before the result', async () => {
    const { client } = await connect();
    const seen: Progress[] = [];
    const result = await client.callTool({ name: 'progress_steps', arguments: { steps: 4 } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });

    expect(seen).toEqual([1, 2, 3, 4].map((n) => ({ progress: n, total: 4, message: `step ${n}` })));
    expect(result.isError).toBeFalsy();
    // The SDK sends its own progress token; the tool saw it.
    expect(onlyText(result)).toMatch(/^done after 4 steps \(token \d+\)$/);
  });

  it('cancels a running call when its AbortSignal aborts: the promise rejects and the handler signal aborts', async () => {
    const { client, session } = await connect();
    const controller = new AbortController();
    const calling = client.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    const settled = thrown(calling);
    const started = await probe.whenStarted({ tool: 'wait_for_cancel' });

    controller.abort('the user pressed stop');
    expect(await settled).toBeInstanceOf(Error);
    const observed = await probe.whenObserved({ tool: 'wait_for_cancel', requestId: started.requestId });
    expect(observed).toMatchObject({ aborted: true, reasonKind: 'cancelled' });
    expect(observed.reasonMessage).toContain('the user pressed stop');
    await until(() => session().runningCalls === 0, 'the end of the cancelled call');

    // The session is unharmed.
    const after = await client.callTool({ name: 'progress_steps', arguments: { steps: 1 } });
    expect(after.isError).toBeFalsy();
  });

  it('round-trips an elicitation through the client handler', async () => {
    const asked: unknown[] = [];
    const { client } = await connect({ elicitation: {} }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { name: 'Grace' } };
      }),
    );
    const result = await client.callTool({ name: 'ask_user', arguments: { message: 'Your name?' } });

    expect(result.isError).toBeFalsy();
    expect(onlyText(result)).toBe('action=accept content={"name":"Grace"}');
    expect(asked).toEqual([
      {
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    ]);
  });

  it('round-trips a sampling request through the client handler', async () => {
    const prompts: unknown[] = [];
    const { client } = await connect({ sampling: {} }, (c) =>
      c.setRequestHandler(CreateMessageRequestSchema, (request) => {
        prompts.push(request.params.messages);
        return { role: 'assistant', model: 'sdk-model', content: { type: 'text', text: 'hello from the model' } };
      }),
    );
    const result = await client.callTool({ name: 'ask_model', arguments: { prompt: 'Greet me' } });

    expect(result.isError).toBeFalsy();
    expect(onlyText(result)).toBe('model=sdk-model text=hello from the model');
    expect(prompts).toEqual([[{ role: 'user', content: { type: 'text', text: 'Greet me' } }]]);
  });

  it('lists the client roots through the client handler', async () => {
    let asked = 0;
    const { client } = await connect({ roots: { listChanged: true } }, (c) =>
      c.setRequestHandler(ListRootsRequestSchema, () => {
        asked++;
        return { roots: [{ uri: 'file:///repo', name: 'repo' }] };
      }),
    );
    const result = await client.callTool({ name: 'list_client_roots', arguments: {} });

    expect(result.isError).toBeFalsy();
    expect(onlyText(result)).toBe('roots: file:///repo');
    expect(asked).toBe(1);
  });

  it('a client handler that fails makes the tool fail with an isError result carrying its message', async () => {
    const { client } = await connect({ elicitation: {} }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, () => {
        throw new Error('no user at the keyboard');
      }),
    );
    const result = await client.callTool({ name: 'ask_user', arguments: { message: 'Hello?' } });

    expect(result.isError).toBe(true);
    expect(onlyText(result)).toContain('no user at the keyboard');
    expect((await probe.whenObserved({ tool: 'ask_user' })).error).toMatchObject({ isClientRequestError: true });
  });

  it('hears notifications/tools/list_changed on its GET stream after removeTool', async () => {
    const tools = running.app.get(McpToolRegistry);
    tools.add({ name: 'sdk_runtime_tool', description: 'Removed by the test' }, () => 'here');
    try {
      let changes = 0;
      const { client, session } = await connect({}, (c) =>
        c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          changes++;
        }),
      );
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('sdk_runtime_tool');
      // The SDK opens its GET stream in the background after connecting.
      await until(() => session().hasStream, 'the GET stream of the SDK client');

      expect(tools.remove('sdk_runtime_tool')).toBe(true);
      await until(() => changes > 0, 'notifications/tools/list_changed');
      expect(changes).toBe(1);
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('sdk_runtime_tool');
    } finally {
      tools.remove('sdk_runtime_tool');
    }
  });

  it('receives log messages after setLoggingLevel("debug"), from the call and from the host', async () => {
    const logs: { level: string; logger?: string; data: unknown }[] = [];
    const { client, session } = await connect({}, (c) =>
      c.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logs.push(notification.params);
      }),
    );
    await client.setLoggingLevel('debug');
    expect(session().logLevel).toBe('debug');

    const result = await client.callTool({ name: 'log_levels', arguments: {} });
    expect(onlyText(result)).toBe('debug,info,notice,warning,error,critical,alert,emergency');
    await until(() => logs.length >= 8, 'eight log messages');
    expect(logs.map((log) => log.level)).toEqual([
      'debug',
      'info',
      'notice',
      'warning',
      'error',
      'critical',
      'alert',
      'emergency',
    ]);
    expect(logs[0]).toEqual({ level: 'debug', logger: 'interaction', data: { text: 'debug message' } });

    // A message from host code travels on the GET stream.
    await until(() => session().hasStream, 'the GET stream of the SDK client');
    expect(session().log('debug', 'from the host', 'host')).toBe(true);
    await until(() => logs.length >= 9, 'the host log message');
    expect(logs[8]).toEqual({ level: 'debug', logger: 'host', data: 'from the host' });
  });
});
