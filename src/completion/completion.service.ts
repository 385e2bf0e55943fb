import { Injectable } from '@nestjs/common';
import type { ItemCompleter, CompleterTable } from '../items/completer.js';
import { CallLifecycle } from '../execution/call-lifecycle.js';
import { jsonRpcAnswers } from '../execution/failure-mapping.js';
import { kindLoggers } from '../execution/kind-loggers.js';
import type { MessageContext } from '../execution/message-context.js';
import { plainTarget } from '../execution/plain-target.js';
import type { ItemRequest } from '../execution/item-request.js';
import type { ServedHandler } from '../execution/served-handler.js';
import type { McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CompleteParams, CompleteResult } from '../protocol/mcp.types.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { unknownPrompt } from '../prompts/prompt.renderer.js';
import { ResourceStore } from '../resources/resource.store.js';
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
 * Serves `completion/complete` for prompt arguments and resource template variables, on the one
 * call lifecycle. What completion adds to it: only a caller who may see the prompt or template (its
 * guards, asked as for a listing) gets completions; for the others, as for one that does not
 * exist, the answer is -32602. A reference to a resource with a fixed URI gets an empty list, as
 * does an argument without a completer. The completer is served like any item: a function (the
 * `complete` option, or an `enum` in the arguments' schema) with no pipeline, or an
 * `@McpCompletion()` method behind its own (its guards denying means no candidates).
 */
@Injectable()
export class CompletionService {
  private readonly answers = jsonRpcAnswers(kindLoggers().completion);

  constructor(
    private readonly prompts: PromptStore,
    private readonly resources: ResourceStore,
    private readonly lifecycle: CallLifecycle,
  ) {}

  complete(params: CompleteParams, call: MessageContext, requestId: RequestId): Promise<CompleteResult> {
    const { ref } = params;
    const name = ref.type === 'ref/prompt' ? ref.name : ref.uri;
    return this.lifecycle.run<CompleteResult>(
      this.answers,
      call,
      requestId,
      { kind: 'completion', name, meta: params._meta },
      async (running) => {
        const target = this.find(params);
        if (!target || !(await running.admitsToSee(target.served, target.item))) throw this.unknown(params);
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
        // A completer method whose guards deny the caller offers nothing.
        return running.serveOne(
          {
            handler: servedCompleter(completer),
            item: { kind: 'completion', name: target.item.name },
            raw: request,
            map: toCompleteResult,
          },
          () => NO_COMPLETIONS,
        );
      },
    );
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
    const template = this.resources.templates.get(ref.uri);
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

/** A completer as the lifecycle serves it: a function has no pipeline, a method has its own. */
function servedCompleter(completer: ItemCompleter): ServedHandler {
  if (completer.kind === 'handler') return completer.handler;
  const target = plainTarget((invocation) =>
    completer.complete(invocation.arguments as McpCompletionRequest, invocation.context!),
  );
  return { owner: completer.owner, target: () => target };
}
