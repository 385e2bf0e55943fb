import { Injectable } from '@nestjs/common';
import { plainTarget } from '../execution/plain-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { PromptDefinition } from '../protocol/mcp.types.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { McpItemRegistry } from './item.registry.js';
import { requireHandler } from './require-handler.js';

/**
 * A prompt added at run time: its options, the name required.
 * @category Registries
 */
export type McpRuntimePromptOptions = McpPromptOptions & { readonly name: string };

/**
 * The handler of a prompt added at run time: the same contract as an `@McpPrompt()` method.
 * @category Registries
 */
export type McpPromptHandler<A extends object = Record<string, string>> = (args: A, context: McpContext) => unknown;

/**
 * The prompts the application serves, by name: `@McpPrompt()` methods found at bootstrap, and
 * those added here while it runs (each burst of changes sends one
 * `notifications/prompts/list_changed`). The same verbs as {@link McpToolRegistry}.
 *
 * Prompts added at run time are plain functions: no Nest pipeline runs for them (no guards,
 * global ones included).
 *
 * @category Registries
 */
@Injectable()
export class McpPromptRegistry extends McpItemRegistry<PromptDefinition> {
  /** @internal */
  constructor(private readonly store: PromptStore) {
    super(store);
  }

  /**
   * Serves a prompt from now on, rendered by `handler`.
   * @throws McpDefinitionError for an invalid definition, a handler that is not a function, or a name already taken.
   */
  add<A extends object>(options: McpRuntimePromptOptions, handler: McpPromptHandler<A>): void {
    requireHandler(handler, `McpPromptRegistry.add(${options?.name})`);
    const target = plainTarget((invocation) => handler(invocation.arguments as A, invocation.context!));
    this.store.define(options, options.name, `runtime prompt ${options.name}`, () => target);
  }
}
