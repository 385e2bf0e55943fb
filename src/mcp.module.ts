import {
  Inject,
  Module,
  Scope,
  type DynamicModule,
  type INestApplicationContext,
  type MiddlewareConsumer,
  type NestModule,
  type Type,
} from '@nestjs/common';
import { DiscoveryModule, REQUEST } from '@nestjs/core';
import { CompletionService } from './completion/completion.service.js';
import { ItemExplorer } from './discovery/item.explorer.js';
import { ServerIdentity } from './discovery/server-identity.js';
import { ServersCheck } from './discovery/servers.check.js';
import { MetadataAccessor } from './discovery/metadata.accessor.js';
import { CallLifecycle } from './execution/call-lifecycle.js';
import { GuardClock } from './execution/guard-clock.js';
import { ItemVisibility } from './execution/item-visibility.js';
import { PipelineFactory } from './execution/pipeline.factory.js';
import {
  MCP_CHANGE_BUS,
  MCP_ENDPOINT_CONTROLLER,
  MCP_RESOLVED_OPTIONS,
  MCP_SERVERS_CHECK,
  MCP_SESSION,
} from './mcp.constants.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import {
  MCP_ASYNC_OPTIONS_TYPE,
  MCP_MODULE_OPTIONS,
  MCP_OPTIONS_TYPE,
  McpConfigurableModule,
} from './mcp.module-definition.js';
import { resolveMcpOptions } from './mcp-options.defaults.js';
import { PromptRenderer } from './prompts/prompt.renderer.js';
import { PromptStore } from './prompts/prompt.store.js';
import { McpPromptRegistry } from './registries/prompt.registry.js';
import { McpResourceTemplateRegistry } from './registries/resource-template.registry.js';
import { McpResourceRegistry } from './registries/resource.registry.js';
import { McpSessionRegistry } from './registries/session.registry.js';
import { McpToolRegistry } from './registries/tool.registry.js';
import { ResourceReader } from './resources/resource.reader.js';
import { ResourceStore } from './resources/resource.store.js';
import { RouteInjector } from './routes/route-injector.js';
import { RouteTools } from './routes/route-tools.js';
import { Schemas } from './schemas/schemas.js';
import { Sealer } from './sealing/sealer.js';
import { InProcessChangeBus } from './notifications/in-process-change-bus.js';
import { ListChangedNotifier } from './notifications/list-changed.notifier.js';
import { ListenStreams } from './dispatch/listen-streams.js';
import { RequestRouter } from './dispatch/request-router.js';
import { ServedCapabilities } from './dispatch/served-capabilities.js';
import { TelemetryGauges } from './dispatch/telemetry-gauges.js';
import { TelemetryItems } from './dispatch/telemetry-items.js';
import { SessionFanout } from './notifications/session-fanout.js';
import { StateSecretNotice } from './sealing/state-secret.notice.js';
import { RequestSessions } from './session/request-sessions.js';
import { SessionStore } from './session/session.store.js';
import { BufferBudget } from './session/buffer-budget.js';
import { ApplicationBudget } from './session/application-budget.js';
import { ApplicationBudgetModule } from './session/application-budget.module.js';
import { SharedSessions } from './session/shared-sessions.js';
import { SharedChangeBus } from './notifications/shared-change-bus.js';
import { TaskService } from './tasks/task.service.js';
import { TaskSessionEnds } from './tasks/task-session-ends.js';
import { ToolCaller } from './tools/tool.caller.js';
import { ToolStore } from './tools/tool.store.js';
import { BodyParserNotice } from './http/body-parser.notice.js';
import { FastifyEndpointRoute } from './http/fastify/fastify-endpoint-route.js';
import { FastifyEndpointDoor } from './http/fastify/fastify-endpoint-door.js';
import { FastifyRawBody } from './http/fastify/fastify-raw-body.js';
import { EndpointDoorMiddleware } from './http/door/endpoint-door.middleware.js';
import { SessionPost } from './http/eras/session-post.js';
import { LoneRequests } from './http/eras/lone-requests.js';
import { ScopeChallenges } from './http/responses/scope-challenges.js';
import { SessionlessPost } from './http/eras/sessionless-post.js';
import { SharedGet } from './http/eras/shared-get.js';
import { StatelessPost } from './http/eras/stateless-post.js';
import { StreamableHttpTransport } from './http/streamable-http.transport.js';
import { StdioServer } from './stdio/stdio-server.js';

/** The public facades users inject; everything else stays inside the module. */
const REGISTRIES = [
  McpToolRegistry,
  McpResourceRegistry,
  McpResourceTemplateRegistry,
  McpPromptRegistry,
  McpSessionRegistry,
];

/**
 * Serves the Model Context Protocol from a Nest application: over Streamable HTTP at an endpoint
 * of the application, or (`transport: 'stdio'`) on the process's stdin and stdout.
 *
 * Import it once with {@link McpModule.forRoot} or {@link McpModule.forRootAsync}; every `@McpTool()`,
 * `@McpResource()`, `@McpResourceTemplate()` and `@McpPrompt()` method on the application's providers
 * and controllers is then served at the endpoint (default `/mcp`).
 *
 * @example
 * ```ts
 * @Module({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [WeatherTools] })
 * export class AppModule {}
 * ```
 * @category Module
 */
@Module({
  imports: [DiscoveryModule, ApplicationBudgetModule],
  providers: [
    { provide: MCP_RESOLVED_OPTIONS, useFactory: resolveMcpOptions, inject: [MCP_MODULE_OPTIONS] },
    // One secret seals what clients hand back (requestState, cursors); one bus fans changes out.
    {
      provide: Sealer,
      useFactory: ({ state }: ResolvedMcpOptions) =>
        state.secret === undefined ? Sealer.ephemeral() : Sealer.fromSecret(state.secret),
      inject: [MCP_RESOLVED_OPTIONS],
    },
    // What the application's servers hold for their clients, in all (`limits.bufferedChars`).
    {
      provide: BufferBudget,
      useFactory: ({ limits }: ResolvedMcpOptions, application: ApplicationBudget) =>
        application.join(limits.bufferedChars),
      inject: [MCP_RESOLVED_OPTIONS, ApplicationBudget],
    },
    SharedSessions,
    {
      provide: MCP_CHANGE_BUS,
      // With shared state, resource updates cross instances; otherwise the bus is this process's.
      useFactory: (shared: SharedSessions) => (shared.enabled ? new SharedChangeBus(shared) : new InProcessChangeBus()),
      inject: [SharedSessions],
    },
    StateSecretNotice,
    // This server among the application's others, then discovery and the stores it fills.
    ServerIdentity,
    ServersCheck,
    { provide: MCP_SERVERS_CHECK, useExisting: ServersCheck },
    MetadataAccessor,
    ItemExplorer,
    RouteTools,
    RouteInjector,
    Schemas,
    ToolStore,
    ResourceStore,
    PromptStore,
    SessionStore,
    // The one call lifecycle, and what each kind adds to it.
    PipelineFactory,
    GuardClock,
    ItemVisibility,
    CallLifecycle,
    ToolCaller,
    TaskService,
    TaskSessionEnds,
    ResourceReader,
    PromptRenderer,
    CompletionService,
    // The protocol server and its transport.
    RequestSessions,
    {
      provide: MCP_SESSION,
      scope: Scope.REQUEST,
      inject: [REQUEST, RequestSessions],
      useFactory: (request: unknown, sessions: RequestSessions) => sessions.of(request),
    },
    ListChangedNotifier,
    SessionFanout,
    ServedCapabilities,
    ListenStreams,
    TelemetryGauges,
    TelemetryItems,
    RequestRouter,
    EndpointDoorMiddleware,
    FastifyEndpointDoor,
    FastifyEndpointRoute,
    BodyParserNotice,
    FastifyRawBody,
    SessionPost,
    LoneRequests,
    ScopeChallenges,
    StatelessPost,
    SessionlessPost,
    SharedGet,
    StreamableHttpTransport,
    ...REGISTRIES,
  ],
  exports: [...REGISTRIES, MCP_SESSION],
})
export class McpModule extends McpConfigurableModule implements NestModule {
  /**
   * Serves MCP with options known up front.
   * @param options server identity and limits ({@link McpModuleOptions}) plus `path`, `guards`, `isGlobal`.
   */
  static override forRoot(options: typeof MCP_OPTIONS_TYPE): DynamicModule {
    return super.forRoot(options);
  }

  /**
   * Serves MCP with options from a factory, class or existing provider (`useFactory` + `inject`,
   * `useClass`, `useExisting`); `path`, `guards` and `isGlobal` stay plain values beside them.
   */
  static override forRootAsync(options: typeof MCP_ASYNC_OPTIONS_TYPE): DynamicModule {
    return super.forRootAsync(options);
  }

  /**
   * Serves the application's `transport: 'stdio'` server on stdin and stdout, and closes the
   * application when the client goes: it closed stdin (or sent SIGTERM or SIGINT), or stopped reading
   * stdout. Resolves once the application is closed; the process then exits on its own, with code 0.
   *
   * A helper rather than a bootstrap hook because only the code holding the application can close it
   * (Nest hands providers no reference to it), and so that serving starts once the application is
   * whole. Create the application with `{ bufferLogs: true }`: its bootstrap logs wait in Nest's buffer
   * until stdout is reserved for JSON-RPC, then go to stderr with every later log and `console.log`.
   *
   * @example
   * ```ts
   * const app = await NestFactory.createApplicationContext(AppModule, { bufferLogs: true });
   * await McpModule.serveStdio(app);
   * ```
   * @throws Error when the application has no `McpModule.forRoot({ transport: 'stdio' })`, or the
   *   process serves stdio already.
   */
  static async serveStdio(app: INestApplicationContext): Promise<void> {
    let server: StdioServer;
    try {
      server = app.get(StdioServer, { strict: false });
    } catch {
      throw new Error(
        "McpModule.serveStdio(): the application has no stdio server; import McpModule.forRoot({ ..., transport: 'stdio' })",
      );
    }
    const end = await server.serve(() => app.flushLogs());
    // Closed by its own code already: its closing is under way, and awaited there.
    if (end !== 'application-closed') await app.close();
  }

  /** @internal Nest makes the module; its dependencies are no part of the published declarations. */
  constructor(
    @Inject(MCP_ENDPOINT_CONTROLLER) private readonly endpoint: Type<unknown> | null,
    private readonly fastifyEndpointRoute: FastifyEndpointRoute,
  ) {
    super();
  }

  /**
   * Puts the Origin/Host check in front of this module's endpoint, before any guard: hooks of the
   * endpoint's route on Fastify (cheaper there than a middleware), the middleware everywhere else.
   */
  configure(consumer: MiddlewareConsumer): void {
    // A stdio server has no endpoint to guard (in an HTTP application, its routes are the app's own).
    if (this.endpoint === null) return;
    if (this.fastifyEndpointRoute.install()) return;
    consumer.apply(EndpointDoorMiddleware).forRoutes(this.endpoint);
  }
}
