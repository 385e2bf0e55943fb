import {
  Inject,
  Module,
  Scope,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type Type,
} from '@nestjs/common';
import { DiscoveryModule, REQUEST } from '@nestjs/core';
import { McpCompletionService } from './completion/completion.service.js';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { McpCallLifecycle } from './execution/call-lifecycle.js';
import { GuardClock } from './execution/guard-clock.js';
import { ItemVisibility } from './execution/item-visibility.js';
import { McpPipelineFactory } from './execution/mcp-pipeline.factory.js';
import { MCP_CHANGE_BUS, MCP_ENDPOINT_CONTROLLER, MCP_RESOLVED_OPTIONS, MCP_SESSION } from './mcp.constants.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import {
  MCP_ASYNC_OPTIONS_TYPE,
  MCP_MODULE_OPTIONS,
  MCP_OPTIONS_TYPE,
  McpConfigurableModule,
} from './mcp.module-definition.js';
import { resolveMcpOptions } from './mcp-options.defaults.js';
import { McpPromptRenderer } from './prompts/prompt.renderer.js';
import { PromptStore } from './prompts/prompt.store.js';
import { McpPromptRegistry } from './registries/prompt.registry.js';
import { McpResourceTemplateRegistry } from './registries/resource-template.registry.js';
import { McpResourceRegistry } from './registries/resource.registry.js';
import { McpSessionRegistry } from './registries/session.registry.js';
import { McpToolRegistry } from './registries/tool.registry.js';
import { McpResourceReader } from './resources/resource.reader.js';
import { ResourceStore } from './resources/resource.store.js';
import { McpSchemas } from './schemas/mcp-schemas.js';
import { Sealer } from './sealing/sealer.js';
import { InProcessChangeBus } from './server/in-process-change-bus.js';
import { ListChangedNotifier } from './server/list-changed.notifier.js';
import { ListenStreams } from './server/listen-streams.js';
import { McpServer } from './server/mcp.server.js';
import { ServedCapabilities } from './server/served-capabilities.js';
import { SessionFanout } from './server/session-fanout.js';
import { StateSecretNotice } from './server/state-secret.notice.js';
import { McpRequestSessions } from './session/request-sessions.js';
import { SessionStore } from './session/session.store.js';
import { SharedSessions } from './session/shared-sessions.js';
import { SharedChangeBus } from './server/shared-change-bus.js';
import { McpToolCaller } from './tools/tool.caller.js';
import { ToolStore } from './tools/tool.store.js';
import { BodyParserNotice } from './transport/body-parser.notice.js';
import { DuplicateEndpointNotice } from './transport/duplicate-endpoint.notice.js';
import { FastifyEndpointRoute } from './transport/fastify-endpoint-route.js';
import { FastifyOriginCheck } from './transport/fastify-origin-check.js';
import { FastifyRawBody } from './transport/fastify-raw-body.js';
import { McpOriginMiddleware } from './transport/origin.middleware.js';
import { SessionPost } from './transport/session-post.js';
import { LoneRequests } from './transport/lone-requests.js';
import { ScopeChallenges } from './transport/scope-challenges.js';
import { SessionlessPost } from './transport/sessionless-post.js';
import { SharedGet } from './transport/shared-get.js';
import { StatelessPost } from './transport/stateless-post.js';
import { StreamableHttpTransport } from './transport/streamable-http.transport.js';

/** The public facades users inject; everything else stays inside the module. */
const REGISTRIES = [
  McpToolRegistry,
  McpResourceRegistry,
  McpResourceTemplateRegistry,
  McpPromptRegistry,
  McpSessionRegistry,
];

/**
 * Serves the Model Context Protocol (Streamable HTTP) from a Nest application.
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
  imports: [DiscoveryModule],
  providers: [
    { provide: MCP_RESOLVED_OPTIONS, useFactory: resolveMcpOptions, inject: [MCP_MODULE_OPTIONS] },
    // One secret seals what clients hand back (requestState, cursors); one bus fans changes out.
    {
      provide: Sealer,
      useFactory: ({ state }: ResolvedMcpOptions) =>
        state.secret === undefined ? Sealer.ephemeral() : Sealer.fromSecret(state.secret),
      inject: [MCP_RESOLVED_OPTIONS],
    },
    SharedSessions,
    {
      provide: MCP_CHANGE_BUS,
      // With shared state, resource updates cross instances; otherwise the bus is this process's.
      useFactory: (shared: SharedSessions) => (shared.enabled ? new SharedChangeBus(shared) : new InProcessChangeBus()),
      inject: [SharedSessions],
    },
    StateSecretNotice,
    // Discovery, then the stores it fills.
    McpMetadataAccessor,
    McpExplorer,
    McpSchemas,
    ToolStore,
    ResourceStore,
    PromptStore,
    SessionStore,
    // The one call lifecycle, and what each kind adds to it.
    McpPipelineFactory,
    GuardClock,
    ItemVisibility,
    McpCallLifecycle,
    McpToolCaller,
    McpResourceReader,
    McpPromptRenderer,
    McpCompletionService,
    // The protocol server and its transport.
    McpRequestSessions,
    {
      provide: MCP_SESSION,
      scope: Scope.REQUEST,
      inject: [REQUEST, McpRequestSessions],
      useFactory: (request: unknown, sessions: McpRequestSessions) => sessions.of(request),
    },
    ListChangedNotifier,
    SessionFanout,
    ServedCapabilities,
    ListenStreams,
    McpServer,
    McpOriginMiddleware,
    FastifyOriginCheck,
    FastifyEndpointRoute,
    BodyParserNotice,
    FastifyRawBody,
    DuplicateEndpointNotice,
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

  /** @internal Nest makes the module; its dependencies are no part of the published declarations. */
  constructor(
    @Inject(MCP_ENDPOINT_CONTROLLER) private readonly endpoint: Type<unknown>,
    private readonly fastifyOriginCheck: FastifyOriginCheck,
    private readonly fastifyEndpointRoute: FastifyEndpointRoute,
  ) {
    super();
  }

  /**
   * Puts the Origin/Host check in front of this module's endpoint, before any guard: a Fastify hook
   * on Fastify (cheaper there than a middleware), the middleware everywhere else.
   */
  configure(consumer: MiddlewareConsumer): void {
    this.fastifyEndpointRoute.install();
    if (this.fastifyOriginCheck.install()) return;
    consumer.apply(McpOriginMiddleware).forRoutes(this.endpoint);
  }
}
