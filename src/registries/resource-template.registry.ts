import { Injectable } from '@nestjs/common';
import { plainTarget } from '../execution/plain-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { ResourceTemplateDefinition } from '../protocol/mcp.types.js';
import { ResourceStore } from '../resources/resource.store.js';
import { McpItemRegistry } from './item.registry.js';
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
export class McpResourceTemplateRegistry extends McpItemRegistry<ResourceTemplateDefinition> {
  /** @internal */
  constructor(private readonly store: ResourceStore) {
    super(store?.templates);
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
}
