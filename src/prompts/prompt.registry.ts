import { Injectable, Optional } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { Catalogue } from '../catalogue/catalogue.js';
import { definitionLabel } from '../catalogue/definition-checks.js';
import { completerTable, isReplaceable, type ItemCompleter } from '../catalogue/completer.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { plainTarget } from '../execution/plain-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { Page } from '../protocol/pagination.js';
import { McpSchemas } from '../schemas/mcp-schemas.js';
import { preparePrompt } from './prompt-definition.factory.js';
import type { RegisteredPrompt } from './registered-prompt.interface.js';

/** A prompt added at run time: its options, the name required. */
export type McpRuntimePromptOptions = McpPromptOptions & { readonly name: string };

/** The handler of a prompt added at run time: the same contract as an `@McpPrompt()` method. */
export type McpPromptHandler<A extends object = Record<string, string>> = (args: A, context: McpContext) => unknown;

/**
 * The prompts one application serves, by name. `@McpPrompt()` methods are registered at
 * bootstrap; inject it to add or remove prompts while the application runs (each burst of changes
 * sends `notifications/prompts/list_changed`).
 */
@Injectable()
export class McpPromptRegistry {
  private readonly prompts = new Catalogue<RegisteredPrompt>(
    (prompt) => prompt.definition.name,
    (existing, added) =>
      new McpDefinitionError(
        `Prompt name "${added.definition.name}" is used twice: by ${existing.owner} and by ${added.owner}`,
      ),
  );
  private readonly schemas: McpSchemas;

  /** @internal */
  constructor(@Optional() schemas?: McpSchemas) {
    this.schemas = schemas ?? new McpSchemas();
  }

  /** Emits once per burst of changes to the served prompts. */
  get changes(): Observable<void> {
    return this.prompts.changes;
  }

  /** Prompts registered. */
  get size(): number {
    return this.prompts.size;
  }

  /**
   * Prepares a prompt from its options and registers it.
   * @internal
   * @throws McpDefinitionError for an invalid definition or a name already taken.
   */
  define(
    options: McpPromptOptions,
    defaultName: string,
    owner: string,
    target: RegisteredPrompt['target'],
  ): RegisteredPrompt {
    const label = definitionLabel('@McpPrompt()', owner);
    const prepared = preparePrompt(options, defaultName, label, this.schemas.converter);
    const prompt: RegisteredPrompt = {
      definition: prepared.definition,
      argumentNames: prepared.argumentNames,
      checkArguments: prepared.checkArguments,
      completers: completerTable(options.complete, prepared.argumentNames, prepared.schema, label, owner),
      owner,
      timeoutMs: options.timeoutMs,
      target,
    };
    this.prompts.add(prompt);
    return prompt;
  }

  /**
   * Serves a prompt from now on, rendered by `handler`. No Nest pipeline runs for it (no guards,
   * global ones included).
   * @throws McpDefinitionError for an invalid definition or a name already taken.
   */
  addPrompt<A extends object>(options: McpRuntimePromptOptions, handler: McpPromptHandler<A>): void {
    if (typeof handler !== 'function') {
      throw new McpDefinitionError(`addPrompt(${options.name}): handler must be a function`);
    }
    const target = plainTarget((invocation) => handler(invocation.arguments as A, invocation.context!));
    this.define(options, options.name, `runtime prompt ${options.name}`, () => target);
  }

  /**
   * Stops serving a prompt.
   * @returns whether there was one.
   */
  removePrompt(name: string): boolean {
    return this.prompts.remove(name);
  }

  /**
   * Hides a prompt from `prompts/list` and refuses it, like an unknown one, until {@link enablePrompt}.
   * @returns whether it exists.
   */
  disablePrompt(name: string): boolean {
    return this.prompts.disable(name);
  }

  /**
   * Serves a disabled prompt again.
   * @returns whether it exists.
   */
  enablePrompt(name: string): boolean {
    return this.prompts.enable(name);
  }

  /** Whether a prompt with this name is served (registered and enabled). */
  has(name: string): boolean {
    return this.prompts.isEnabled(name);
  }

  /**
   * The served prompt with this name.
   * @internal
   */
  get(name: string): RegisteredPrompt | undefined {
    return this.prompts.get(name);
  }

  /**
   * Adds the completer of a prompt argument (an `@McpCompletion()` method).
   * @internal
   * @throws McpDefinitionError when there is no such prompt or argument, or it has a completer already.
   */
  addCompleter(name: string, argument: string, completer: ItemCompleter, label: string): void {
    const prompt = this.prompts.get(name);
    if (!prompt) throw new McpDefinitionError(`${label}: there is no prompt ${name}`);
    if (!prompt.argumentNames.includes(argument)) {
      throw new McpDefinitionError(`${label}: prompt ${name} has no argument ${argument}`);
    }
    if (!isReplaceable(prompt.completers.get(argument))) {
      throw new McpDefinitionError(`${label}: argument ${argument} of prompt ${name} has a completer already`);
    }
    prompt.completers.set(argument, completer);
  }

  /**
   * One page of the served prompts a caller may see.
   * @internal
   */
  page(
    cursor: string | undefined,
    pageSize: number,
    visible: (prompt: RegisteredPrompt) => boolean | Promise<boolean>,
  ): Promise<Page<RegisteredPrompt>> {
    return this.prompts.page(cursor, pageSize, visible);
  }
}
