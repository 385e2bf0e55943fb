import { Injectable } from '@nestjs/common';
import { CallLifecycle } from '../execution/call-lifecycle.js';
import { jsonRpcAnswers } from '../execution/failure-mapping.js';
import { kindLoggers } from '../execution/kind-loggers.js';
import type { MessageContext } from '../execution/message-context.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import type { GetPromptParams, GetPromptResult, InputRequiredResult } from '../protocol/mcp.types.js';
import { toGetPromptResult } from './prompt-result.mapper.js';
import { PromptStore } from './prompt.store.js';

/** The answer to a prompt that does not exist, or that the caller may not see. */
export function unknownPrompt(name: string): Error {
  return invalidParams(`Unknown prompt: ${name}`);
}

/**
 * Serves `prompts/get` on the one call lifecycle. What prompts add to it: the prompt is found by
 * name; an unknown prompt and one the caller's guards deny are answered alike (-32602
 * `Unknown prompt`); invalid arguments get -32602 naming each problem; the value is mapped to
 * messages, the prompt's description beside them.
 */
@Injectable()
export class PromptRenderer {
  private readonly answers = jsonRpcAnswers(kindLoggers().prompt);

  constructor(
    private readonly prompts: PromptStore,
    private readonly lifecycle: CallLifecycle,
  ) {}

  get(
    params: GetPromptParams,
    call: MessageContext,
    requestId: RequestId,
  ): Promise<GetPromptResult | InputRequiredResult> {
    const { name } = params;
    const raw = params.arguments ?? {};
    // An unknown prompt goes through the same steps as a hidden one (a reused request id included).
    return this.lifecycle.run<GetPromptResult>(
      this.answers,
      call,
      requestId,
      { kind: 'prompt', name, meta: params._meta, input: { method: Method.PromptsGet, ...params } },
      async (running) => {
        const prompt = this.prompts.get(name);
        if (!prompt) throw unknownPrompt(name);
        return running.serveOne(
          {
            handler: prompt,
            item: { kind: 'prompt', name },
            raw,
            arguments: {
              check: prompt.checkArguments,
              invalid: (problems) => {
                throw problems === undefined
                  ? invalidParams(`the arguments of prompt ${name} could not be read`)
                  : invalidParams(`invalid arguments for prompt ${name}: ${problems.join('; ')}`);
              },
            },
            map: (value) => toGetPromptResult(value, prompt.definition.description),
          },
          () => {
            throw unknownPrompt(name);
          },
        );
      },
    );
  }
}
