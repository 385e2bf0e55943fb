import { Injectable } from '@nestjs/common';
import { McpRequestRunner } from '../execution/mcp-request.runner.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { GetPromptParams, GetPromptResult } from '../protocol/mcp.types.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import { McpPromptRegistry } from './prompt.registry.js';
import type { RegisteredPrompt } from './registered-prompt.interface.js';
import { toGetPromptResult } from './prompt-result.mapper.js';

/**
 * Serves `prompts/get`: finds the prompt, asks its guards, validates its arguments, runs it
 * through its Nest pipeline and maps the messages. An unknown prompt and one the caller's guards
 * deny are answered alike (-32602 "Unknown prompt"); invalid arguments get -32602 naming each problem.
 */
@Injectable()
export class McpPromptRenderer {
  constructor(
    private readonly registry: McpPromptRegistry,
    private readonly runner: McpRequestRunner,
  ) {}

  get(params: GetPromptParams, call: McpCallContext, requestId: RequestId): Promise<GetPromptResult> {
    const item = { kind: 'prompt' as const, name: params.name };
    // An unknown prompt goes through the same steps as a hidden one (a reused request id included).
    return this.runner.run(requestId, call, { ...item, meta: params._meta }, async (state) => {
      const prompt = this.registry.get(params.name);
      if (!prompt) throw unknownPrompt(params.name);
      const execution = await this.runner.execute(
        prompt,
        item,
        call,
        () => this.arguments(prompt, params.arguments ?? {}),
        state,
        params.arguments ?? {},
      );
      if (execution.denied) throw unknownPrompt(params.name);
      try {
        return toGetPromptResult(execution.value, prompt.definition.description);
      } catch (error) {
        throw this.runner.failure(prompt.owner, item, error, false);
      }
    });
  }

  private async arguments(prompt: RegisteredPrompt, raw: Readonly<Record<string, string>>): Promise<object> {
    const { name } = prompt.definition;
    let check;
    try {
      check = await prompt.checkArguments({ ...raw });
    } catch {
      throw invalidParams(`the arguments of prompt ${name} could not be read`);
    }
    if (!check.ok) throw invalidParams(`invalid arguments for prompt ${name}: ${check.problems.join('; ')}`);
    return check.value;
  }
}

/** The answer to a prompt that does not exist, or that the caller may not see. */
export function unknownPrompt(name: string): Error {
  return invalidParams(`Unknown prompt: ${name}`);
}
