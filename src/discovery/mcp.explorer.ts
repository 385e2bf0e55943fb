import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { prepareHandlerParams } from '../execution/handler-params.js';
import { ToolPipelineFactory } from '../execution/tool-pipeline.factory.js';
import { McpToolRegistry } from '../tools/tool.registry.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';

// Named through the public DiscoveryService API rather than imported from Nest's internals.
type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/**
 * Finds `@McpTool()` methods on every provider and controller of the application at module
 * init, and registers them behind their Nest pipeline, schemas computed, before the first request
 * can arrive. Methods of static providers are bound once; those of request-scoped, durable or
 * transient providers are resolved per request.
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  private readonly logger = new Logger('McpExplorer');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly metadata: McpMetadataAccessor,
    private readonly tools: McpToolRegistry,
    private readonly pipelines: ToolPipelineFactory,
  ) {}

  onModuleInit(): void {
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      this.explore(wrapper);
    }
    if (this.tools.size > 0) this.pipelines.assertNoTransientGlobalEnhancers();
    this.logger.log(`Serving ${this.tools.size} MCP tool(s)`);
  }

  private explore(wrapper: InstanceWrapper): void {
    if (wrapper.isAlias) return;
    // Take the class from the instance, not the wrapper: factory providers have no metatype to read.
    const instance: unknown = wrapper.instance;
    const prototype = instance ? Object.getPrototypeOf(instance) : (wrapper.metatype?.prototype as unknown);
    if (!prototype || typeof prototype !== 'object') return;
    const classRef = (prototype as { constructor: abstract new (...args: never[]) => unknown }).constructor;
    const isStatic = wrapper.isDependencyTreeStatic() && !wrapper.isTransient;

    for (const methodName of this.scanner.getAllMethodNames(prototype)) {
      const options = this.metadata.getToolOptions((prototype as Record<string, unknown>)[methodName]);
      if (!options) continue;
      const owner = `${classRef.name}.${methodName}`;
      const paramsKey = prepareHandlerParams(classRef, methodName, owner);
      if (isStatic && instance) {
        this.tools.define(
          options,
          methodName,
          owner,
          this.pipelines.forStatic(instance, methodName, paramsKey, wrapper.id),
        );
      } else {
        this.tools.define(
          options,
          methodName,
          owner,
          this.pipelines.forScoped(wrapper.token, methodName, paramsKey, wrapper.id, wrapper.isDependencyTreeDurable()),
        );
      }
    }
  }
}
