import { Injectable } from '@nestjs/common';
import { ItemStore } from '../items/item-store.js';
import { completerTable, isReplaceable, type ItemCompleter } from '../items/completer.js';
import { definitionLabel } from '../items/definition-checks.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import { Schemas } from '../schemas/schemas.js';
import { preparePrompt } from './prompt-definition.factory.js';
import type { RegisteredPrompt } from './registered-prompt.interface.js';

/**
 * The prompts one application serves, by name: filled by discovery at bootstrap and by
 * `McpPromptRegistry` at run time, read by `prompts/list`, `prompts/get` and completion. Every
 * burst of changes to the served set emits once on `changes`.
 */
@Injectable()
export class PromptStore extends ItemStore<RegisteredPrompt> {
  constructor(private readonly schemas: Schemas) {
    super(
      (prompt) => prompt.definition.name,
      (existing, added) =>
        new McpDefinitionError(
          `Prompt name "${added.definition.name}" is used twice: by ${existing.owner} and by ${added.owner}`,
        ),
    );
  }

  /**
   * Prepares a prompt from its options and registers it.
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
    this.add(prompt);
    return prompt;
  }

  /**
   * Adds the completer of a prompt argument (an `@McpCompletion()` method).
   * @throws McpDefinitionError when there is no such prompt or argument, or it has a completer already.
   */
  addCompleter(name: string, argument: string, completer: ItemCompleter, label: string): void {
    const prompt = this.get(name);
    if (!prompt) throw new McpDefinitionError(`${label}: there is no prompt ${name}`);
    if (!prompt.argumentNames.includes(argument)) {
      throw new McpDefinitionError(`${label}: prompt ${name} has no argument ${argument}`);
    }
    if (!isReplaceable(prompt.completers.get(argument))) {
      throw new McpDefinitionError(`${label}: argument ${argument} of prompt ${name} has a completer already`);
    }
    prompt.completers.set(argument, completer);
  }
}
