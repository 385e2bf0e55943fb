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
import { McpPipelineFactory } from './execution/mcp-pipeline.factory.js';
import { McpRequestSessions } from './session/request-sessions.js';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { MCP_ENDPOINT_CONTROLLER, MCP_RESOLVED_OPTIONS, MCP_SESSION } from './mcp.constants.js';
import {
  MCP_ASYNC_OPTIONS_TYPE,
  MCP_MODULE_OPTIONS,
  MCP_OPTIONS_TYPE,
  McpConfigurableModule,
} from './mcp.module-definition.js';
import { resolveMcpOptions } from './mcp-options.defaults.js';
import { McpServer } from './server/mcp.server.js';
import { McpSessionRegistry } from './session/session.registry.js';
import { McpToolInvoker } from './tools/tool.invoker.js';
import { McpToolRegistry } from './tools/tool.registry.js';
import { McpCompletionService } from './completion/completion.service.js';
import { McpRequestRunner } from './execution/mcp-request.runner.js';
import { McpPromptRegistry } from './prompts/prompt.registry.js';
import { McpPromptRenderer } from './prompts/prompt.renderer.js';
import { McpResourceReader } from './resources/resource.reader.js';
import { McpResourceRegistry } from './resources/resource.registry.js';
import { McpSchemas } from './schemas/mcp-schemas.js';
import { ListChangedNotifier } from './server/list-changed.notifier.js';
import { BodyParserNotice } from './transport/body-parser.notice.js';
import { McpOriginMiddleware } from './transport/origin.middleware.js';
import { StreamableHttpTransport } from './transport/streamable-http.transport.js';

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
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    { provide: MCP_RESOLVED_OPTIONS, useFactory: resolveMcpOptions, inject: [MCP_MODULE_OPTIONS] },
    McpMetadataAccessor,
    McpExplorer,
    McpSchemas,
    McpToolRegistry,
    McpResourceRegistry,
    McpPromptRegistry,
    McpPipelineFactory,
    McpRequestRunner,
    McpResourceReader,
    McpPromptRenderer,
    McpCompletionService,
    McpRequestSessions,
    {
      provide: MCP_SESSION,
      scope: Scope.REQUEST,
      inject: [REQUEST, McpRequestSessions],
      useFactory: (request: unknown, sessions: McpRequestSessions) => sessions.of(request),
    },
    McpToolInvoker,
    ListChangedNotifier,
    McpServer,
    McpSessionRegistry,
    McpOriginMiddleware,
    BodyParserNotice,
    StreamableHttpTransport,
  ],
  exports: [McpSessionRegistry, McpToolRegistry, McpResourceRegistry, McpPromptRegistry, MCP_SESSION],
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

  constructor(@Inject(MCP_ENDPOINT_CONTROLLER) private readonly endpoint: Type<unknown>) {
    super();
  }

  /** Puts the Origin/Host check in front of this module's endpoint, before any guard. */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(McpOriginMiddleware).forRoutes(this.endpoint);
  }
}
