import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { ItemCompleter } from '../items/completer.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { prepareHandlerParams } from '../execution/handler-params.js';
import { PipelineFactory } from '../execution/pipeline.factory.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpCompletionOptions } from '../interfaces/mcp-completion.interface.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_HANDLER_PARAMS_METADATA, MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { ResourceStore } from '../resources/resource.store.js';
import { selectRoute, routeToolName } from '../routes/route-selection.js';
import { RouteTools } from '../routes/route-tools.js';
import { ServerIdentity } from './server-identity.js';
import { ToolStore } from '../tools/tool.store.js';
import { MetadataAccessor, type MethodMetadata } from './metadata.accessor.js';
import { ServedItems } from './served-items.js';

// Named through the public DiscoveryService API rather than imported from Nest's internals.
type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];

type TargetOf = (request: unknown) => PipelineTarget | Promise<PipelineTarget>;

/** An `@McpCompletion()` found during the scan, attached once every prompt and template is known. */
interface FoundCompletion {
  readonly options: McpCompletionOptions;
  readonly completer: ItemCompleter;
  readonly label: string;
}

/**
 * Finds `@McpTool()`, `@McpResource()`, `@McpResourceTemplate()`, `@McpPrompt()` and
 * `@McpCompletion()` methods on every provider and controller of the application at module init,
 * and registers them behind their Nest pipeline, schemas computed, before the first request can
 * arrive. Methods of static providers are bound once; those of request-scoped, durable or
 * transient providers are resolved per request.
 */
@Injectable()
export class ItemExplorer implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly metadata: MetadataAccessor,
    private readonly tools: ToolStore,
    private readonly resources: ResourceStore,
    private readonly prompts: PromptStore,
    private readonly pipelines: PipelineFactory,
    private readonly routes: RouteTools,
    private readonly identity: ServerIdentity,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  /** Route-backed tools a stdio server leaves unserved. */
  private routesWithoutHttp = 0;

  onModuleInit(): void {
    const completions: FoundCompletion[] = [];
    const served = new ServedItems(this.options.items, this.options.name);
    let handlers = 0;
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      handlers += this.explore(wrapper, completions, served);
    }
    served.checkNamed();
    if (this.routesWithoutHttp > 0) {
      this.logger.log(
        `MCP server '${this.options.name}' leaves ${this.routesWithoutHttp} route-backed tool(s) unserved: ` +
          'on stdio there is no HTTP server to run their routes through',
      );
    }
    for (const completion of completions) this.attach(completion, served);
    if (handlers > 0) this.pipelines.assertNoTransientGlobalEnhancers();
    this.logger.log(
      `MCP server '${this.options.name}' serves ${this.tools.size} tool(s), ${this.resources.resources.size} ` +
        `resource(s), ${this.resources.templates.size} resource template(s), ${this.prompts.size} prompt(s)`,
    );
  }

  /**
   * Warns when, every module initialised, the application serves nothing: the usual cause is a
   * class with decorated methods that is not a provider (or controller) of any module. Checked after
   * every `onModuleInit`, so items added at run time there count.
   */
  onApplicationBootstrap(): void {
    if (this.tools.size + this.resources.resources.size + this.resources.templates.size + this.prompts.size > 0) return;
    this.logger.warn(
      'McpModule serves no tools, resources, resource templates or prompts: no @McpTool(), @McpResource(), ' +
        '@McpResourceTemplate() or @McpPrompt() method was found. Put them on a class listed in the `providers` ' +
        '(or `controllers`) of a module of this application, or add items with McpToolRegistry and the other registries.',
    );
  }

  /** @returns how many handlers the wrapper's class declares. */
  private explore(wrapper: InstanceWrapper, completions: FoundCompletion[], served: ServedItems): number {
    if (wrapper.isAlias) return 0;
    // Take the class from the instance, not the wrapper: factory providers have no metatype to read.
    const instance: unknown = wrapper.instance;
    const prototype: unknown = instance ? Object.getPrototypeOf(instance) : wrapper.metatype?.prototype;
    if (!prototype || typeof prototype !== 'object') return 0;
    const classRef = (prototype as { constructor: abstract new (...args: never[]) => unknown }).constructor;
    const isStatic = wrapper.isDependencyTreeStatic() && !wrapper.isTransient;
    let handlers = 0;

    const classRoute = this.metadata.getRouteClassOptions(classRef);
    for (const methodName of this.scanner.getAllMethodNames(prototype)) {
      const method = (prototype as Record<string, unknown>)[methodName];
      const owner = `${classRef.name}.${methodName}`;
      let found = this.metadata.getMethodMetadata(method);
      // A route with its own @McpRoute() was asked for by name; the others are its controller's bulk form.
      const explicitRoute = found?.route !== undefined;
      // A route of an @McpRoute() controller, or one with its own @McpRoute(): served unless left out.
      if (typeof method === 'function' && (found?.route !== undefined || (found === undefined && classRoute))) {
        found = { ...found, route: selectRoute(classRoute, found?.route, method, owner) };
        if (Object.values(found).every((value) => value === undefined)) continue;
      }
      if (!found) continue;
      handlers++;
      const pipeline = (paramsKey: string): TargetOf =>
        isStatic && instance
          ? this.pipelines.forStatic(instance as object, methodName, paramsKey, wrapper.id)
          : this.pipelines.forScoped(
              wrapper.token,
              methodName,
              paramsKey,
              wrapper.id,
              wrapper.isDependencyTreeDurable(),
            );
      if (found.route) {
        // A route its controller's bulk form left out (a shape no tool can take) is in no list to warn about.
        if (!this.defineRoute(found, classRef, methodName, owner, served, pipeline, explicitRoute)) continue;
        // A route-backed tool is listed by its guards as a tool is: the same warning about public caches.
        this.checkCacheScope(
          { tool: found.route },
          classRef,
          (prototype as Record<string, unknown>)[methodName],
          owner,
        );
        continue;
      }
      const target = pipeline(prepareHandlerParams(classRef, methodName, owner, decoratorOf(found)));
      this.checkCacheScope(found, classRef, (prototype as Record<string, unknown>)[methodName], owner);
      // Every server asks about every item (a name its `items` option gives must exist somewhere).
      if (found.tool && served.serves('tools', found.tool.name ?? methodName)) {
        this.tools.define(found.tool, methodName, owner, target);
      }
      if (found.resource && served.serves('resources', found.resource.uri)) {
        this.resources.define(found.resource, methodName, owner, target);
      }
      if (found.resourceTemplate && served.serves('resourceTemplates', found.resourceTemplate.uriTemplate)) {
        this.resources.defineTemplate(found.resourceTemplate, methodName, owner, target);
      }
      if (found.prompt && served.serves('prompts', found.prompt.name ?? methodName)) {
        this.prompts.define(found.prompt, methodName, owner, target);
      }
      for (const options of found.completions ?? []) {
        completions.push({
          options,
          completer: { kind: 'handler', handler: { owner, target } },
          label: `@McpCompletion() on ${owner}`,
        });
      }
    }
    return handlers;
  }

  /**
   * Serves a route handler as a tool. Only its guards run behind the MCP pipeline (for listings): the
   * route itself runs through the HTTP handler, so its own parameters are never read as MCP ones.
   * @returns `false` for a route its controller's bulk form left out (it is no tool anywhere).
   */
  private defineRoute(
    found: MethodMetadata,
    classRef: abstract new (...args: never[]) => unknown,
    methodName: string,
    owner: string,
    served: ServedItems,
    pipeline: (paramsKey: string) => TargetOf,
    explicit: boolean,
  ): boolean {
    const others = Object.entries(found).filter(([key, value]) => key !== 'route' && value !== undefined);
    if (others.length > 0) {
      throw new McpDefinitionError(
        `@McpRoute() on ${owner}: a route handler is served through HTTP and cannot also be an MCP handler; ` +
          'put @McpTool() and the other MCP decorators on another method',
      );
    }
    const route = found.route!;
    const handler = (classRef.prototype as Record<string, object>)[methodName]!;
    // Served elsewhere, or over stdio without HTTP: still a tool of the application, warned about as any item.
    if (!served.serves('tools', routeToolName(route, handler, methodName))) return true;
    if (this.identity.stdio) {
      this.routesWithoutHttp++;
      return true;
    }
    return this.routes.define(route, classRef, methodName, owner, pipeline(MCP_HANDLER_PARAMS_METADATA), explicit);
  }

  /**
   * Warns when a list configured `public` (shared caches may serve it to anyone) holds an item whose
   * guards may hide it from some callers: one caller's list would then reach another.
   */
  private checkCacheScope(
    found: Omit<MethodMetadata, 'tool'> & { readonly tool?: object },
    classRef: object,
    method: unknown,
    owner: string,
  ): void {
    const { cache } = this.options;
    const lists = [
      found.tool && cache.tools?.scope === 'public' ? 'tools' : undefined,
      found.resource && cache.resources?.scope === 'public' ? 'resources' : undefined,
      found.resourceTemplate && cache.resourceTemplates?.scope === 'public' ? 'resourceTemplates' : undefined,
      found.prompt && cache.prompts?.scope === 'public' ? 'prompts' : undefined,
    ].filter((list) => list !== undefined);
    if (lists.length === 0 || !this.pipelines.declaresGuards(classRef, method)) return;
    for (const list of lists) {
      this.logger.warn(
        `options.cache.${list}.scope is 'public', but ${owner} has guards that may hide it from some callers: ` +
          `shared caches could serve one caller's list to another. Use scope 'private' (the default) for lists guards filter.`,
      );
    }
  }

  private attach({ options, completer, label }: FoundCompletion, served: ServedItems): void {
    const { prompt, resourceTemplate, argument } = options;
    if (typeof argument !== 'string' || argument === '') throw new McpDefinitionError(`${label}: argument is required`);
    if ((prompt === undefined) === (resourceTemplate === undefined)) {
      throw new McpDefinitionError(`${label}: name exactly one of prompt or resourceTemplate`);
    }
    // A completion follows its prompt or template: another server serves it when this one does not.
    if (served.elsewhere(prompt !== undefined ? 'prompts' : 'resourceTemplates', prompt ?? resourceTemplate!)) return;
    if (prompt !== undefined) this.prompts.addCompleter(prompt, argument, completer, label);
    else this.resources.addCompleter(resourceTemplate!, argument, completer, label);
  }
}

/** The decorator to name in errors about the method's parameters. */
function decoratorOf(found: MethodMetadata): string {
  if (found.tool) return '@McpTool()';
  if (found.resource) return '@McpResource()';
  if (found.resourceTemplate) return '@McpResourceTemplate()';
  if (found.prompt) return '@McpPrompt()';
  return '@McpCompletion()';
}
