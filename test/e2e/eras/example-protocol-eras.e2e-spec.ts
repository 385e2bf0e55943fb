/**
 * The `deleteProject` example of the two protocol eras (the README's until 1.0, now the site's
 * "Two protocol eras" page), compiled and served: its code is below, with what it names supplied
 * around it (the `ProjectArgs` DTO, the `CONFIRM` form, a `ProjectsService` that counts its calls).
 * The official SDK v2 client, speaking 2026-07-28, then checks what the page says of it: the
 * confirmation is an input_required round its elicitation handler answers, the handler runs once per
 * round while `ctx.once` runs `countFiles` once per request, decline keeps the project and accept
 * deletes it; on a 2025 session (SDK v1 client) the same tool sends a real `elicitation/create`
 * request and `once` just runs. Then the caching snippet, served: its hints on the lists and reads,
 * and the v2 client caching by them. A change to the example on the site is a change here too.
 */
import 'reflect-metadata';
import {
  MissingRequiredClientCapabilityError,
  type Client as ModernClient,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitRequest as LegacyElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IsString, Length } from 'class-validator';
import type { Observable } from 'rxjs';
import { McpExecutionContext, McpModule, McpResource, McpTool, type McpContext } from '../../../src/index.js';
import { useModernSdkClients, type ModernSdkConnection } from '../../utils/modern-sdk-clients.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { thrown } from '../../utils/thrown.js';
import { onlyText } from '../../utils/tool-results.js';
import { type ElicitationSchema } from '../../../src/protocol/index.js';

// ---- Supplied: what the example names and leaves to the reader. ----

export class ProjectArgs {
  @IsString()
  @Length(1, 64)
  id!: string;
}

const CONFIRM: ElicitationSchema = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Delete the project and its files' } },
  required: ['confirm'],
};

/** Two projects with their file counts; notes every `countFiles` and every deletion. */
@Injectable()
export class ProjectsService {
  private readonly files = new Map<string, number>();
  /** The ids `countFiles` was asked about, in order. */
  readonly counted: string[] = [];
  /** The ids deleted, in order. */
  readonly deleted: string[] = [];

  constructor() {
    this.reset();
  }

  reset(): void {
    this.files.clear();
    this.files.set('apollo', 42);
    this.files.set('gemini', 7);
    this.counted.length = 0;
    this.deleted.length = 0;
  }

  has(id: string): boolean {
    return this.files.has(id);
  }

  countFiles(id: string): Promise<number> {
    this.counted.push(id);
    return Promise.resolve(this.files.get(id) ?? 0);
  }

  delete(id: string): Promise<void> {
    this.files.delete(id);
    this.deleted.push(id);
    return Promise.resolve();
  }
}

// ---- The example: begin ----
@Injectable()
export class ProjectTools {
  constructor(private readonly projects: ProjectsService) {}

  @McpTool({ description: 'Deletes a project after confirmation', input: ProjectArgs })
  async deleteProject({ id }: ProjectArgs, ctx: McpContext): Promise<string> {
    // Runs once per request, not once per round: the count is carried in requestState.
    const count = await ctx.once('files', () => this.projects.countFiles(id));
    const answer = await ctx.elicit(
      { message: `Delete ${id} and its ${count} files?`, requestedSchema: CONFIRM },
      { key: 'confirm' },
    );
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Kept';
    await this.projects.delete(id);
    return 'Deleted';
  }
}
// ---- The example: end ----

// ---- The caching snippet: begin (its lines, in a module and a provider of their own) ----
const CACHING_MODULE = McpModule.forRoot({
  name: 'weather',
  version: '1.0.0',
  cache: { tools: { ttlMs: 300_000, scope: 'public' }, reads: { ttlMs: 60_000 } },
});

@Injectable()
export class WeatherCities {
  @McpResource({ uri: 'weather://cities', cache: { ttlMs: 3_600_000, scope: 'public' } })
  cities(): string[] {
    return ['Lisbon', 'Oslo'];
  }
}
// ---- The caching snippet: end ----

/** A resource without hints of its own: its reads get the module's `cache.reads`. */
@Injectable()
export class WeatherStations {
  @McpResource({ uri: 'weather://stations', mimeType: 'application/json' })
  stations(): string[] {
    return ['LIS-1', 'OSL-2'];
  }
}

// ---- The test's own probe: one entry per run of a tool handler (interceptors run once per round). ----

interface Run {
  readonly name: string;
  readonly era: string | undefined;
  readonly session: boolean;
}

@Injectable()
class RunRecorder implements NestInterceptor {
  static readonly runs: Run[] = [];

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (McpExecutionContext.isMcp(context)) {
      const mcp = McpExecutionContext.of(context);
      RunRecorder.runs.push({ name: mcp.name, era: mcp.context?.era, session: mcp.session !== undefined });
    }
    return next.handle();
  }
}

const MODERN_RUN: Run = { name: 'deleteProject', era: 'modern', session: false };
const LEGACY_RUN: Run = { name: 'deleteProject', era: 'legacy', session: true };
const ASK_APOLLO = { message: 'Delete apollo and its 42 files?', requestedSchema: CONFIRM };

describe('the deleteProject example, served', () => {
  let running: RunningApp;
  let projects: ProjectsService;
  const modern = useModernSdkClients();
  const legacy = useSdkClients({ terminate: true });

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'example-eras', version: '1.0.0' })],
      providers: [ProjectsService, ProjectTools, { provide: APP_INTERCEPTOR, useClass: RunRecorder }],
    });
    projects = running.app.get(ProjectsService);
  });

  beforeEach(() => {
    projects.reset();
    RunRecorder.runs.length = 0;
  });

  afterAll(async () => {
    await running?.close();
  });

  describe('on 2026-07-28 (SDK v2 client): the confirmation is an input round', () => {
    type Asked = { key: unknown; params: ElicitRequest['params'] };

    /** A v2 client on 2026-07-28 whose elicitation handler answers `answer`, noting what it was asked and under which key. */
    async function answering(answer: ElicitResult): Promise<ModernSdkConnection & { asked: Asked[] }> {
      const asked: Asked[] = [];
      const connection = await modern.connect(running.mcpUrl, {
        info: { name: 'example-eras-v2', version: '2.0.0' },
        capabilities: { elicitation: { form: {} } },
        prepare: (client: ModernClient) =>
          client.setRequestHandler('elicitation/create', (request, ctx) => {
            asked.push({ key: ctx.mcpReq.id, params: request.params });
            return answer;
          }),
      });
      expect(connection.client.getProtocolEra()).toBe('modern');
      return { ...connection, asked };
    }

    it("asks through the client's elicitation handler under the key 'confirm', and deletes once the user accepts", async () => {
      const answer: ElicitResult = { action: 'accept', content: { confirm: true } };
      const { client, posts, asked } = await answering(answer);
      const result = await client.callTool({ name: 'deleteProject', arguments: { id: 'apollo' } });

      expect(result.isError).toBeFalsy();
      expect(onlyText(result)).toBe('Deleted');
      expect(asked).toEqual([{ key: 'confirm', params: ASK_APOLLO }]);
      expect(projects.deleted).toEqual(['apollo']);
      expect(projects.has('apollo')).toBe(false);
      expect(projects.has('gemini')).toBe(true);

      // Two POSTs: the round ends input_required with the ask and a sealed state, the retry carries both back.
      const [first, retry, ...more] = posts('tools/call');
      expect(more).toEqual([]);
      const round = (first!.response as { result: Record<string, unknown> }).result;
      expect(round).toEqual({
        resultType: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create', params: ASK_APOLLO } },
        requestState: expect.any(String),
        _meta: expect.any(Object),
      });
      expect(retry!.body).toMatchObject({
        method: 'tools/call',
        params: {
          name: 'deleteProject',
          arguments: { id: 'apollo' },
          inputResponses: { confirm: answer },
          requestState: round.requestState,
        },
      });
      expect((retry!.body as { id: unknown }).id).not.toEqual((first!.body as { id: unknown }).id);
      expect(retry!.response).toMatchObject({ result: { resultType: 'complete', content: [{ text: 'Deleted' }] } });
    });

    it('runs countFiles once per request though the handler runs once per round, twice', async () => {
      const { client } = await answering({ action: 'accept', content: { confirm: true } });
      await client.callTool({ name: 'deleteProject', arguments: { id: 'apollo' } });

      expect(RunRecorder.runs).toEqual([MODERN_RUN, MODERN_RUN]);
      expect(projects.counted).toEqual(['apollo']);

      // Once per request: the next request counts afresh.
      await client.callTool({ name: 'deleteProject', arguments: { id: 'gemini' } });
      expect(RunRecorder.runs).toHaveLength(4);
      expect(projects.counted).toEqual(['apollo', 'gemini']);
      expect(projects.deleted).toEqual(['apollo', 'gemini']);
    });

    it.each<[string, ElicitResult]>([
      ['declines', { action: 'decline' }],
      ['cancels', { action: 'cancel' }],
      ['accepts without confirming', { action: 'accept', content: { confirm: false } }],
    ])('keeps the project when the user %s', async (_label, answer) => {
      const { client, posts, asked } = await answering(answer);
      const result = await client.callTool({ name: 'deleteProject', arguments: { id: 'apollo' } });

      expect(result.isError).toBeFalsy();
      expect(onlyText(result)).toBe('Kept');
      expect(asked).toEqual([{ key: 'confirm', params: ASK_APOLLO }]);
      expect(projects.has('apollo')).toBe(true);
      expect(projects.deleted).toEqual([]);
      expect(projects.counted).toEqual(['apollo']);
      expect(RunRecorder.runs).toEqual([MODERN_RUN, MODERN_RUN]);
      const calls = posts('tools/call');
      expect(calls).toHaveLength(2);
      expect((calls[1]!.body as { params: { inputResponses: unknown } }).params.inputResponses).toEqual({
        confirm: answer,
      });
    });

    it('answers -32021 naming elicitation to a request that did not declare it, and deletes nothing', async () => {
      const { client, posts } = await modern.connect(running.mcpUrl, { info: { name: 'no-elicit', version: '2.0.0' } });
      const error = await thrown(client.callTool({ name: 'deleteProject', arguments: { id: 'apollo' } }));

      expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
      expect(Object.keys((error as MissingRequiredClientCapabilityError).requiredCapabilities)).toEqual([
        'elicitation',
      ]);
      expect(posts('tools/call').map((exchange) => exchange.status)).toEqual([400]);
      expect(projects.has('apollo')).toBe(true);
      expect(projects.deleted).toEqual([]);
    });
  });

  describe('on a 2025 session (SDK v1 client): a real elicitation/create request', () => {
    /** A v1 client with a session whose elicitation handler answers `answer`, noting the requests. */
    async function answering(answer: { action: 'accept' | 'decline'; content?: Record<string, boolean> }) {
      const asked: { method: string; params: LegacyElicitRequest['params'] }[] = [];
      const connection = await legacy.connect(running.mcpUrl, {
        info: { name: 'example-eras-v1', version: '1.0.0' },
        capabilities: { elicitation: {} },
        prepare: (client: Client) =>
          client.setRequestHandler(ElicitRequestSchema, (request) => {
            asked.push({ method: request.method, params: request.params });
            return answer;
          }),
      });
      expect(typeof connection.transport.sessionId).toBe('string');
      return { ...connection, asked };
    }

    it('asks the client on its session, runs the handler once (and so once), and deletes on accept', async () => {
      const { client, asked } = await answering({ action: 'accept', content: { confirm: true } });
      const result = await client.callTool({ name: 'deleteProject', arguments: { id: 'apollo' } });

      expect(onlyText(result)).toBe('Deleted');
      expect(asked).toEqual([{ method: 'elicitation/create', params: ASK_APOLLO }]);
      expect(RunRecorder.runs).toEqual([LEGACY_RUN]);
      expect(projects.counted).toEqual(['apollo']);
      expect(projects.deleted).toEqual(['apollo']);
    });

    it('keeps the project when the user declines', async () => {
      const { client, asked } = await answering({ action: 'decline' });
      const result = await client.callTool({ name: 'deleteProject', arguments: { id: 'apollo' } });

      expect(onlyText(result)).toBe('Kept');
      expect(asked).toHaveLength(1);
      expect(RunRecorder.runs).toEqual([LEGACY_RUN]);
      expect(projects.counted).toEqual(['apollo']);
      expect(projects.has('apollo')).toBe(true);
    });
  });
});

describe('the caching snippet, served (SDK v2 client on 2026-07-28)', () => {
  let running: RunningApp;
  const modern = useModernSdkClients();

  beforeAll(async () => {
    running = await startApp({
      imports: [CACHING_MODULE],
      providers: [ProjectsService, ProjectTools, WeatherCities, WeatherStations],
    });
  });

  afterAll(async () => {
    await running?.close();
  });

  async function connect(): Promise<ModernSdkConnection> {
    const connection = await modern.connect(running.mcpUrl, { info: { name: 'example-cache', version: '2.0.0' } });
    expect(connection.client.getProtocolEra()).toBe('modern');
    return connection;
  }

  /** The `ttlMs` and `cacheScope` of the result of each POST of `method`. */
  const hints = (connection: ModernSdkConnection, method: string) =>
    connection.posts(method).map((exchange) => {
      const { ttlMs, cacheScope } = (exchange.response as { result: { ttlMs?: unknown; cacheScope?: unknown } }).result;
      return { ttlMs, cacheScope };
    });

  it('hints tools/list public for 5 minutes, and the client serves the list again from its cache', async () => {
    const connection = await connect();
    const first = await connection.client.listTools();
    const again = await connection.client.listTools();

    expect(first.tools.map((tool) => tool.name)).toEqual(['deleteProject']);
    expect(again).toEqual(first);
    expect(hints(connection, 'tools/list')).toEqual([{ ttlMs: 300_000, cacheScope: 'public' }]);
  });

  it("hints weather://cities with the resource's own cache: public for an hour, read once", async () => {
    const connection = await connect();
    const read = await connection.client.readResource({ uri: 'weather://cities' });
    await connection.client.readResource({ uri: 'weather://cities' });

    expect(read.contents).toEqual([
      { uri: 'weather://cities', mimeType: 'application/json', text: JSON.stringify(['Lisbon', 'Oslo']) },
    ]);
    expect(hints(connection, 'resources/read')).toEqual([{ ttlMs: 3_600_000, cacheScope: 'public' }]);
  });

  it("hints other reads with cache.reads (scope left private), and what is not configured with ttlMs 0 and the defaults' scopes", async () => {
    const connection = await connect();
    await connection.client.readResource({ uri: 'weather://stations' });
    await connection.client.listResources();
    await connection.client.listResources();

    expect(hints(connection, 'resources/read')).toEqual([{ ttlMs: 60_000, cacheScope: 'private' }]);
    // ttlMs 0: stale at once, so the client asks every time.
    expect(hints(connection, 'resources/list')).toEqual([
      { ttlMs: 0, cacheScope: 'private' },
      { ttlMs: 0, cacheScope: 'private' },
    ]);
    expect(hints(connection, 'server/discover')).toEqual([{ ttlMs: 0, cacheScope: 'public' }]);
  });
});
