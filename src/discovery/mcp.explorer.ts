import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import { controllerEnhancersMessage, nonStaticProviderMessage, unsupportedEnhancersMessage } from '../mcp.messages.js';
import type { DtoJsonSchemaConverter } from '../tools/dto-json-schema.js';
import { buildToolDefinition } from '../tools/tool-definition.factory.js';
import { McpToolRegistry } from '../tools/tool.registry.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';

// Named through the public DiscoveryService API rather than imported from Nest's internals.
type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/**
 * Finds `@McpTool()` methods on every provider and controller of the application at module
 * init, and registers them, schemas computed, before the first request can arrive.
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  private readonly logger = new Logger('McpExplorer');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly metadata: McpMetadataAccessor,
    private readonly tools: McpToolRegistry,
  ) {}

  onModuleInit(): void {
    const schemas = this.tools.schemaConverter;
    for (const wrapper of this.discovery.getProviders()) this.explore(wrapper, schemas, false);
    for (const wrapper of this.discovery.getControllers()) this.explore(wrapper, schemas, true);
    this.logger.log(`Serving ${this.tools.size} MCP tool(s)`);
  }

  private explore(wrapper: InstanceWrapper, schemas: DtoJsonSchemaConverter, isController: boolean): void {
    if (wrapper.isAlias) return;
    // Take the class from the instance, not the wrapper: factory providers have no metatype to read.
    const instance: unknown = wrapper.instance;
    const prototype = instance ? Object.getPrototypeOf(instance) : (wrapper.metatype?.prototype as unknown);
    if (!prototype || typeof prototype !== 'object') return;
    const classRef = (prototype as { constructor: object & { name: string } }).constructor;
    const className = classRef.name;
    let checkedClass = false;

    for (const methodName of this.scanner.getAllMethodNames(prototype)) {
      const method = (prototype as Record<string, unknown>)[methodName];
      const options = this.metadata.getToolOptions(method);
      if (!options) continue;
      const owner = `${className}.${methodName}`;
      if (!wrapper.isDependencyTreeStatic() || !instance) {
        this.logger.warn(nonStaticProviderMessage(className));
        return;
      }
      if (!checkedClass) {
        checkedClass = true;
        this.checkClassEnhancers(classRef, owner, isController);
      }
      // Enhancers on a tool would be silently skipped: a guard the user trusts must not be a no-op.
      const methodEnhancers = this.metadata.getEnhancerKinds(method as object);
      if (methodEnhancers.length > 0) {
        throw new McpToolDefinitionError(unsupportedEnhancersMessage(owner, methodEnhancers));
      }
      const handler = (method as (args: object, context: McpContext) => unknown).bind(instance);
      this.tools.register({
        definition: buildToolDefinition(options, methodName, owner, schemas),
        input: options.input,
        handler,
        timeoutMs: options.timeoutMs,
        owner,
      });
    }
  }

  /** Class-level enhancers protect a controller's routes, so they only earn a warning there. */
  private checkClassEnhancers(classRef: object, owner: string, isController: boolean): void {
    const kinds = this.metadata.getEnhancerKinds(classRef);
    if (kinds.length === 0) return;
    const className = (classRef as { name: string }).name;
    if (isController) this.logger.warn(controllerEnhancersMessage(className, kinds));
    else throw new McpToolDefinitionError(unsupportedEnhancersMessage(owner, kinds));
  }
}
