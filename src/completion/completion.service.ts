import { Injectable } from '@nestjs/common';
import { McpRequestRunner, type ItemRequest, type ServedHandler } from '../execution/mcp-request.runner.js';
import type { McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CompleteParams, CompleteResult } from '../protocol/mcp.types.js';
import { McpPromptRegistry } from '../prompts/prompt.registry.js';
import { unknownPrompt } from '../prompts/prompt.renderer.js';
import { McpResourceRegistry } from '../resources/resource.registry.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import type { CompleterTable, ItemCompleter } from '../catalogue/completer.js';
import { NO_COMPLETIONS, toCompleteResult } from './completion-result.js';

/** What is being completed: the prompt or template, as served. */
interface CompletionTarget {
  readonly served: ServedHandler;
  readonly item: ItemRequest;
  readonly declared: readonly string[];
  readonly completers: CompleterTable;
  /** A resource with a fixed URI: nothing to complete. */
  readonly fixed?: boolean;
}

/**
 * Serves `completion/complete` for prompt arguments and resource template variables.
 *
 * Only a caller who may see the prompt or template (its guards) gets completions; for the others,
 * as for one that does not exist, the answer is -32602. A reference to a resource with a fixed URI
 * (which has nothing to complete) gets an empty list, as does an argument without a completer. A
 * completer is a function (the `complete` option, or an `enum` in the arguments' schema) or an
 * `@McpCompletion()` method run behind its own Nest pipeline (its guards denying means no
 * candidates). The whole request, guards included, is a cancellable call of the session.
 */
@Injectable()
export class McpCompletionService {
  constructor(
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly runner: McpRequestRunner,
  ) {}

  complete(params: CompleteParams, call: McpCallContext, requestId: RequestId): Promise<CompleteResult> {
    const { ref } = params;
    const label = { kind: 'completion' as const, name: ref.type === 'ref/prompt' ? ref.name : ref.uri };
    return this.runner.run(requestId, call, { ...label, meta: params._meta }, async (state) => {
      const target = this.find(params);
      if (!target || !(await this.runner.isAdmitted(target.served, target.item, call))) throw this.unknown(params);
      state.context.rename(target.item.name);
      if (target.fixed) return NO_COMPLETIONS;
      const argument = params.argument.name;
      if (!target.declared.includes(argument)) throw invalidParams(`${target.item.name} has no argument ${argument}`);
      const completer = target.completers.get(argument);
      if (!completer) return NO_COMPLETIONS;
      const request: McpCompletionRequest = {
        argument,
        value: params.argument.value,
        arguments: { ...(params.context?.arguments ?? {}) },
      };
      const item: ItemRequest = { kind: 'completion', name: target.item.name };
      let value: unknown;
      if (completer.kind === 'function') {
        if (state.context.signal.aborted) return NO_COMPLETIONS;
        state.admit(item, undefined);
        try {
          value = await completer.complete(request, state.context);
        } catch (error) {
          throw this.runner.failure(completer.owner, item, error, false);
        }
      } else {
        const execution = await this.runner.execute(completer.handler, item, call, () => request, state, request);
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

  /** The prompt, template or fixed-URI resource referred to. */
  private find(params: CompleteParams): CompletionTarget | undefined {
    const { ref } = params;
    if (ref.type === 'ref/prompt') {
      const prompt = this.prompts.get(ref.name);
      return (
        prompt && {
          served: prompt,
          item: { kind: 'prompt', name: ref.name },
          declared: prompt.argumentNames,
          completers: prompt.completers,
        }
      );
    }
    const template = this.resources.getTemplate(ref.uri);
    if (!template) {
      const resolved = this.resources.resolve(ref.uri);
      if (resolved?.kind !== 'resource') return undefined;
      const { resource } = resolved;
      const item: ItemRequest = { kind: 'resource', name: resource.definition.name, uri: ref.uri };
      return { served: resource, item, declared: [], completers: new Map(), fixed: true };
    }
    return {
      served: template,
      item: { kind: 'resourceTemplate', name: template.definition.name },
      declared: template.template.variables,
      completers: template.completers,
    };
  }

  private unknown(params: CompleteParams): Error {
    const { ref } = params;
    return ref.type === 'ref/prompt' ? unknownPrompt(ref.name) : invalidParams(`Unknown resource template: ${ref.uri}`);
  }
}

function ownerOf(completer: ItemCompleter): string {
  return completer.kind === 'function' ? completer.owner : completer.handler.owner;
}
