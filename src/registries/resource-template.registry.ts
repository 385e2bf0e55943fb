import { Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { plainTarget } from '../execution/plain-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { ResourceTemplateDefinition } from '../protocol/mcp.types.js';
import { ResourceStore } from '../resources/resource.store.js';
import { requireHandler } from './require-handler.js';

/**
 * The handler of a resource or template added at run time: the same contract as a decorated method.
 * @category Registries
 */
export type McpResourceHandler<A extends object = Record<string, string | string[]>> = (
  variables: A,
  context: McpContext,
  uri: string,
) => unknown;

/**
 * A resource template added at run time: its options, the name required.
 * @category Registries
 */
export type McpRuntimeResourceTemplateOptions = McpResourceTemplateOptions & { readonly name: string };

/**
 * The resource templates the application serves, by URI template: `@McpResourceTemplate()`
 * methods found at bootstrap, and those added here while it runs (each burst of changes to
 * resources or templates sends one `notifications/resources/list_changed`). The same verbs as
 * {@link McpResourceRegistry}.
 *
 * A URI is read by the resource with exactly that URI, else by the first template (in registration
 * order) it matches among those the caller's guards admit.
 *
 * @category Registries
 */
@Injectable()
export class McpResourceTemplateRegistry {
  /** @internal */
  constructor(private readonly store: ResourceStore) {}

  /** Emits once per burst of changes to the served resources or templates. */
  get changes(): Observable<void> {
    return this.store.changes;
  }

  /** Templates registered, enabled or not. */
  get size(): number {
    return this.store.templates.size;
  }

  /**
   * Serves a resource template from now on, read by `handler` (called with the variables, the
   * context and the URI). No Nest pipeline runs for it (no guards, global ones included).
   * @throws McpDefinitionError for an invalid definition, a handler that is not a function, or a
   *   URI template already served.
   */
  add<A extends object>(options: McpRuntimeResourceTemplateOptions, handler: McpResourceHandler<A>): void {
    requireHandler(handler, `McpResourceTemplateRegistry.add(${options?.uriTemplate})`);
    const target = plainTarget((invocation) =>
      handler(invocation.arguments as A, invocation.context!, invocation.uri!),
    );
    this.store.defineTemplate(options, options.name, `runtime resource template ${options.uriTemplate}`, () => target);
  }

  /**
   * Stops serving the template with this URI template; reads already running finish.
   * @returns whether there was one.
   */
  remove(uriTemplate: string): boolean {
    return this.store.templates.remove(uriTemplate);
  }

  /**
   * Hides a template from `resources/templates/list` and from reads (its URIs answer -32002 unless
   * another item serves them), until {@link enable}.
   * @returns whether it exists.
   */
  disable(uriTemplate: string): boolean {
    return this.store.templates.disable(uriTemplate);
  }

  /**
   * Serves a disabled template again.
   * @returns whether it exists.
   */
  enable(uriTemplate: string): boolean {
    return this.store.templates.enable(uriTemplate);
  }

  /** Whether a template with this URI template is registered, enabled or not. */
  has(uriTemplate: string): boolean {
    return this.store.templates.has(uriTemplate);
  }

  /** Whether a template with this URI template is registered and served. */
  isEnabled(uriTemplate: string): boolean {
    return this.store.templates.isEnabled(uriTemplate);
  }

  /** The definition of a registered template (as `resources/templates/list` advertises it), enabled or not. */
  get(uriTemplate: string): ResourceTemplateDefinition | undefined {
    return this.store.templates.find(uriTemplate)?.definition;
  }

  /** The definitions of every registered template, enabled or not, in registration order. */
  list(): ResourceTemplateDefinition[] {
    return this.store.templates.registeredItems().map((template) => template.definition);
  }
}
