import { Inject, Injectable } from '@nestjs/common';
import { plainTarget } from '../execution/plain-target.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { ChangeBus } from '../interfaces/change-bus.interface.js';
import { MCP_CHANGE_BUS } from '../mcp.constants.js';
import type { ResourceDefinition } from '../protocol/mcp.types.js';
import { ResourceStore } from '../resources/resource.store.js';
import { McpItemRegistry } from './item.registry.js';
import { requireHandler } from './require-handler.js';
import type { McpResourceHandler } from './resource-template.registry.js';

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
 * `McpResourceTemplateRegistry`, with the same verbs.
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
  /** @internal */
  constructor(
    private readonly store: ResourceStore,
    @Inject(MCP_CHANGE_BUS) private readonly bus: ChangeBus,
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
   * until {@link enable}.
   * @returns whether it exists.
   * @throws TypeError given the URI template of a template (0.3 took those): failing quietly would
   *   leave the template served that its caller meant to hide.
   */
  override disable(uri: string): boolean {
    this.refuseTemplateKey(uri, 'disable');
    return super.disable(uri);
  }

  /**
   * Serves a disabled resource again.
   * @returns whether it exists.
   * @throws TypeError given the URI template of a template.
   */
  override enable(uri: string): boolean {
    this.refuseTemplateKey(uri, 'enable');
    return super.enable(uri);
  }

  /**
   * Tells every client subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`): 2025 sessions subscribed with `resources/subscribe` (on
   * their GET stream; while none is open it waits there, bounded by `limits.outboxMessages`), and 2026-07-28
   * `subscriptions/listen` streams that asked for it. Subscriptions are to exact URIs, as the
   * client sent them.
   * @returns how many sessions and listen streams it was sent (or queued) to.
   */
  notifyUpdated(uri: string): number {
    return this.bus.publish({ kind: 'updated', uri });
  }

  private refuseTemplateKey(key: string, verb: 'disable' | 'enable'): void {
    if (this.has(key) || !this.store.templates.has(key)) return;
    throw new TypeError(
      `McpResourceRegistry.${verb}(${key}) names a resource template: use McpResourceTemplateRegistry.${verb}()`,
    );
  }
}
