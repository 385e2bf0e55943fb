import { Injectable } from '@nestjs/common';
import { plainTarget } from '../execution/plain-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import type { ToolDefinition } from '../protocol/mcp.types.js';
import { ToolStore } from '../tools/tool.store.js';
import { McpItemRegistry } from './item.registry.js';
import { requireHandler } from './require-handler.js';

/**
 * A tool added at run time: its options (the name required) and its handler.
 * @category Registries
 */
export type McpRuntimeToolOptions = McpToolOptions & { readonly name: string };

/**
 * The handler of a tool added at run time: the same contract as an `@McpTool()` method.
 * @category Registries
 */
export type McpToolHandler<A extends object = Record<string, unknown>> = (args: A, context: McpContext) => unknown;

/**
 * The tools the application serves, by name: `@McpTool()` methods found at bootstrap, and those
 * added here while it runs. Every burst of changes to the served set tells each session with an
 * open GET stream (`notifications/tools/list_changed`), once.
 *
 * The same verbs serve every kind: {@link McpResourceRegistry}, {@link McpResourceTemplateRegistry}
 * and {@link McpPromptRegistry} have them too.
 *
 * Tools added at run time are plain functions: no Nest guards, interceptors, pipes or filters run
 * for them (global ones included), as those belong to provider methods.
 *
 * @category Registries
 * @example
 * ```ts
 * constructor(private readonly tools: McpToolRegistry) {}
 *
 * enableBeta(): void {
 *   this.tools.add({ name: 'beta_search', description: 'Searches the beta index', input: SearchDto },
 *     (args: SearchDto) => this.search.beta(args.query));
 * }
 * ```
 */
@Injectable()
export class McpToolRegistry extends McpItemRegistry<ToolDefinition> {
  /** @internal */
  constructor(private readonly store: ToolStore) {
    super(store);
  }

  /**
   * Serves a tool from now on.
   * @throws McpDefinitionError for an invalid definition, a handler that is not a function, or a name already taken.
   */
  add<A extends object>(options: McpRuntimeToolOptions, handler: McpToolHandler<A>): void {
    requireHandler(handler, `McpToolRegistry.add(${options?.name})`);
    const target = plainTarget((invocation) => handler(invocation.arguments as A, invocation.context!));
    this.store.define(options, options.name, `runtime tool ${options.name}`, () => target);
  }
}
