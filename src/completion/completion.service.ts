import { Injectable } from '@nestjs/common';
import { McpRequestRunner, type ItemRequest, type ServedHandler } from '../execution/mcp-request.runner.js';
import type { McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CompleteParams, CompleteResult } from '../protocol/mcp.types.js';
import { McpPromptRegistry } from '../prompts/prompt.registry.js';
import { unknownPrompt } from '../prompts/prompt.renderer.js';
import { McpResourceRegistry } from '../resources/resource.registry.js';
import type { McpCallContext } from '../server/mcp-call-context.js';
import type { CompleterTable } from './completer.js';
import { NO_COMPLETIONS, toCompleteResult } from './completion-result.js';

/** What is being completed: the prompt or template, as served. */
interface CompletionTarget {
  readonly served: ServedHandler;
  readonly item: ItemRequest;
  readonly declared: readonly string[];
  readonly completers: CompleterTable;
}

/**
 * Serves `completion/complete` for prompt arguments and resource template variables.
 *
 * Only a caller who may see the prompt or template (its guards) gets completions; for the others,
 * as for one that does not exist, the answer is -32602. An argument without a completer gets an
 * empty list. A completer is a function (the `complete` option, or an `enum` in the arguments'
 * schema) or an `@McpCompletion()` method run behind its own Nest pipeline (its guards denying
 * means no candidates).
 */
@Injectable()
export class McpCompletionService {
  constructor(
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly runner: McpRequestRunner,
  ) {}

  async complete(params: CompleteParams, call: McpCallContext, requestId: RequestId): Promise<CompleteResult> {
    const target = this.find(params);
    if (!(await this.runner.isVisible(target.served, target.item, call))) throw this.unknown(params);
    const argument = params.argument.name;
    if (!target.declared.includes(argument)) {
      throw invalidParams(`${target.item.name} has no argument ${argument}`);
    }
    const completer = target.completers.get(argument);
    if (!completer) return NO_COMPLETIONS;
    const request: McpCompletionRequest = {
      argument,
      value: params.argument.value,
      arguments: { ...(params.context?.arguments ?? {}) },
    };
    const item = {
      kind: 'completion' as const,
      name: target.item.name,
      ...(target.item.uri ? { uri: target.item.uri } : {}),
    };
    return this.runner.run(requestId, call, { ...item, meta: params._meta }, async (context) => {
      let value: unknown;
      if (completer.kind === 'function') {
        try {
          value = await completer.complete(request, context);
        } catch (error) {
          throw this.runner.failure(completer.owner, item, error, false);
        }
      } else {
        const execution = await this.runner.execute(completer.handler, item, call, () => request, context);
        if (execution.denied) return NO_COMPLETIONS;
        value = execution.value;
      }
      try {
        return toCompleteResult(value);
      } catch (error) {
        throw this.runner.failure(ownerOf(completer), item, error, false);
      }
    });
  }

  private find(params: CompleteParams): CompletionTarget {
    const { ref } = params;
    if (ref.type === 'ref/prompt') {
      const prompt = this.prompts.get(ref.name);
      if (!prompt) throw this.unknown(params);
      return {
        served: prompt,
        item: { kind: 'prompt', name: ref.name },
        declared: prompt.argumentNames,
        completers: prompt.completers,
      };
    }
    const template = this.resources.getTemplate(ref.uri);
    if (!template) throw this.unknown(params);
    return {
      served: template,
      item: { kind: 'resourceTemplate', name: template.definition.name, uri: ref.uri },
      declared: template.template.variables,
      completers: template.completers,
    };
  }

  private unknown(params: CompleteParams): Error {
    const { ref } = params;
    return ref.type === 'ref/prompt' ? unknownPrompt(ref.name) : invalidParams(`Unknown resource template: ${ref.uri}`);
  }
}

function ownerOf(completer: NonNullable<ReturnType<CompleterTable['get']>>): string {
  return completer.kind === 'function' ? completer.owner : completer.handler.owner;
}
