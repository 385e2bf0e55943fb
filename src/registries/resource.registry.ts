import { Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { plainTarget } from '../execution/plain-target.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import { McpMethod } from '../protocol/mcp.methods.js';
import type { ResourceDefinition } from '../protocol/mcp.types.js';
import { ResourceStore } from '../resources/resource.store.js';
import { SessionStore } from '../session/session.store.js';
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
export class McpResourceRegistry {
  /** @internal */
  constructor(
    private readonly store: ResourceStore,
    private readonly sessions: SessionStore,
    private readonly templateRegistry: McpResourceTemplateRegistry,
  ) {}

  /** Emits once per burst of changes to the served resources or templates. */
  get changes(): Observable<void> {
    return this.store.changes;
  }

  /** Resources registered, enabled or not (templates aside). */
  get size(): number {
    return this.store.resources.size;
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
   * Stops serving the resource with this URI; reads already running finish.
   * @returns whether there was one.
   */
  remove(uri: string): boolean {
    return this.store.resources.remove(uri);
  }

  /**
   * Hides a resource from `resources/list` and answers its reads as for an unknown one (-32002),
   * until {@link enable}.
   * @returns whether it exists.
   */
  disable(uri: string): boolean {
    return this.store.resources.disable(uri);
  }

  /**
   * Serves a disabled resource again.
   * @returns whether it exists.
   */
  enable(uri: string): boolean {
    return this.store.resources.enable(uri);
  }

  /** Whether a resource with this URI is registered, enabled or not. */
  has(uri: string): boolean {
    return this.store.resources.has(uri);
  }

  /** Whether a resource with this URI is registered and served. */
  isEnabled(uri: string): boolean {
    return this.store.resources.isEnabled(uri);
  }

  /** The definition of a registered resource (as `resources/list` advertises it), enabled or not. */
  get(uri: string): ResourceDefinition | undefined {
    return this.store.resources.find(uri)?.definition;
  }

  /** The definitions of every registered resource, enabled or not, in registration order. */
  list(): ResourceDefinition[] {
    return this.store.resources.registeredItems().map((resource) => resource.definition);
  }

  /**
   * Tells every session subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`, on its GET stream; while none is open it waits there,
   * bounded by `outboxLimit`). Subscriptions are to exact URIs, as the client sent them.
   * @returns how many sessions it was sent (or queued) to.
   */
  notifyUpdated(uri: string): number {
    let sent = 0;
    for (const session of this.sessions.all()) {
      if (session.isSubscribed(uri) && session.notify(McpMethod.ResourceUpdated, { uri })) sent++;
    }
    return sent;
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
}
