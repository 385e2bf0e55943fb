import { Inject, Injectable, Logger } from '@nestjs/common';
import { plainTarget } from '../execution/plain-target.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpChangeBus } from '../interfaces/mcp-change-bus.interface.js';
import { MCP_CHANGE_BUS } from '../mcp.constants.js';
import type { ResourceDefinition } from '../protocol/mcp.types.js';
import { ResourceStore } from '../resources/resource.store.js';
import { McpItemRegistry } from './item.registry.js';
import { requireHandler } from './require-handler.js';
import {
  McpResourceTemplateRegistry,
  type McpResourceHandler,
  type McpRuntimeResourceTemplateOptions,
} from './resource-template.registry.js';

/**
 * A resource added at run time: its options, the name required.
 * @category Registries
 */
export type McpRuntimeResourceOptions = McpResourceOptions & { readonly name: string };

/**
 * The resources with a fixed URI the application serves, by URI: `@McpResource()` methods found
 * at bootstrap, and those added here while it runs (each burst of changes to resources or templates
 * sends one `notifications/resources/list_changed`). Tells subscribed clients that a resource
 * changed with {@link notifyUpdated}. Templates have their own registry,
 * {@link McpResourceTemplateRegistry}, with the same verbs.
 *
 * Resources added at run time are plain functions: no Nest pipeline runs for them (no guards,
 * global ones included).
 *
 * @category Registries
 * @example
 * ```ts
 * constructor(private readonly resources: McpResourceRegistry) {}
 *
 * onForecastRefreshed(city: string): void {
 *   this.resources.notifyUpdated(`weather://forecast/${encodeURIComponent(city)}`);
 * }
 * ```
 */
@Injectable()
export class McpResourceRegistry extends McpItemRegistry<ResourceDefinition> {
  private readonly logger = new Logger('McpResources');
  private warnedTemplateKey = false;

  /** @internal */
  constructor(
    private readonly store: ResourceStore,
    @Inject(MCP_CHANGE_BUS) private readonly bus: McpChangeBus,
    private readonly templateRegistry: McpResourceTemplateRegistry,
  ) {
    super(store?.resources);
  }

  /**
   * Serves a resource from now on, read by `handler` (called with `{}`, the context and the URI).
   * @throws McpDefinitionError for an invalid definition, a handler that is not a function, or a URI already served.
   */
  add(options: McpRuntimeResourceOptions, handler: McpResourceHandler<Record<string, never>>): void {
    requireHandler(handler, `McpResourceRegistry.add(${options?.uri})`);
    const target = plainTarget((invocation) =>
      handler(invocation.arguments as Record<string, never>, invocation.context!, invocation.uri!),
    );
    this.store.define(options, options.name, `runtime resource ${options.uri}`, () => target);
  }

  /**
   * Hides a resource from `resources/list` and answers its reads as for an unknown one (-32002),
   * until {@link enable}. Given the URI template of a template (as 0.3 took it), hides that template,
   * with a warning: use {@link McpResourceTemplateRegistry.disable}.
   * @returns whether it exists.
   */
  override disable(uri: string): boolean {
    return this.templateKey(uri, 'disable') ? this.templateRegistry.disable(uri) : super.disable(uri);
  }

  /**
   * Serves a disabled resource again (or, given a URI template, as 0.3 took it, that template).
   * @returns whether it exists.
   */
  override enable(uri: string): boolean {
    return this.templateKey(uri, 'enable') ? this.templateRegistry.enable(uri) : super.enable(uri);
  }

  /**
   * Tells every client subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`): 2025 sessions subscribed with `resources/subscribe` (on
   * their GET stream; while none is open it waits there, bounded by `outboxLimit`), and 2026-07-28
   * `subscriptions/listen` streams that asked for it. Subscriptions are to exact URIs, as the
   * client sent them.
   * @returns how many sessions and listen streams it was sent (or queued) to.
   */
  notifyUpdated(uri: string): number {
    return this.bus.publish({ kind: 'updated', uri });
  }

  /** @deprecated Use {@link add}. */
  addResource(options: McpRuntimeResourceOptions, handler: McpResourceHandler<Record<string, never>>): void {
    this.add(options, handler);
  }

  /** @deprecated Use {@link remove}. */
  removeResource(uri: string): boolean {
    return this.remove(uri);
  }

  /** @deprecated Use {@link isEnabled} (this answered whether it is served). */
  hasResource(uri: string): boolean {
    return this.isEnabled(uri);
  }

  /** @deprecated Use {@link McpResourceTemplateRegistry.add}. */
  addResourceTemplate<A extends object>(
    options: McpRuntimeResourceTemplateOptions,
    handler: McpResourceHandler<A>,
  ): void {
    this.templateRegistry.add(options, handler);
  }

  /** @deprecated Use {@link McpResourceTemplateRegistry.remove}. */
  removeResourceTemplate(uriTemplate: string): boolean {
    return this.templateRegistry.remove(uriTemplate);
  }

  /** @deprecated Use {@link McpResourceTemplateRegistry.isEnabled}. */
  hasResourceTemplate(uriTemplate: string): boolean {
    return this.templateRegistry.isEnabled(uriTemplate);
  }

  /** @deprecated Use {@link McpResourceTemplateRegistry.size}. */
  get templateCount(): number {
    return this.templateRegistry.size;
  }

  /**
   * Whether `key` names a template rather than a resource: what 0.3's `disable` and `enable` took
   * too. Failing quietly there would leave a template served that its caller meant to hide.
   */
  private templateKey(key: string, verb: string): boolean {
    if (this.has(key) || !this.templateRegistry.has(key)) return false;
    if (!this.warnedTemplateKey) {
      this.warnedTemplateKey = true;
      this.logger.warn(
        `McpResourceRegistry.${verb}(${key}) names a resource template: use McpResourceTemplateRegistry.${verb}() ` +
          '(McpResourceRegistry will take resource URIs only in a later release)',
      );
    }
    return true;
  }
}
