import { Injectable } from '@nestjs/common';
import { McpCallLifecycle } from '../execution/call-lifecycle.js';
import { kindLoggers } from '../execution/kind-loggers.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import type { CallCandidate } from '../execution/running-call.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CallToolParams, CallToolResult } from '../protocol/mcp.types.js';
import { invalidToolArguments, toolAnswers, unknownTool } from './tool-answers.js';
import { isMalformedCallToolResult, textResult, toCallToolResult, toStructuredResult } from './tool-result.mapper.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { ToolStore } from './tool.store.js';

/** A tool's candidate, but for the arguments of one call. */
type ToolPlan = Omit<CallCandidate<CallToolResult>, 'raw'>;

/**
 * Serves `tools/call` on the one call lifecycle. What tools add to it: the tool is found by name;
 * an unknown tool, one the caller's guards deny and one aborted before they admitted the caller are
 * all answered `Unknown tool`; arguments the input refuses, failures a model can act on and
 * timeouts are `isError` results; a value is mapped to a `CallToolResult`, checked against the
 * tool's `outputSchema` when it has one.
 */
@Injectable()
export class McpToolCaller {
  private readonly logger = kindLoggers().tool;
  private readonly answers = toolAnswers(this.logger);
  private readonly plans = new WeakMap<RegisteredTool, ToolPlan>();

  constructor(
    private readonly tools: ToolStore,
    private readonly lifecycle: McpCallLifecycle,
  ) {}

  call(params: CallToolParams, call: McpCallContext, requestId: RequestId): Promise<CallToolResult> {
    const { name } = params;
    return this.lifecycle.run(this.answers, call, requestId, { kind: 'tool', name, meta: params._meta }, (running) => {
      const tool = this.tools.get(name);
      if (!tool) return Promise.resolve(unknownTool(name));
      return running.serveOne({ ...this.planOf(tool), raw: params.arguments ?? {} }, () => unknownTool(name));
    });
  }

  /** What serving a tool takes beside its arguments: built once per tool, not per call. */
  private planOf(tool: RegisteredTool): ToolPlan {
    let plan = this.plans.get(tool);
    if (!plan) {
      const { name } = tool.definition;
      plan = {
        handler: tool,
        item: { kind: 'tool', name },
        arguments: { check: tool.checkArguments, invalid: (problems) => invalidToolArguments(name, problems) },
        map: (value) => this.toResult(tool, value),
      };
      this.plans.set(tool, plan);
    }
    return plan;
  }

  private toResult(tool: RegisteredTool, value: unknown): CallToolResult {
    const { name } = tool.definition;
    if (isMalformedCallToolResult(value)) {
      // Shaped like a result but not one a client accepts: sending it as JSON text would drop its
      // `isError` without a word. A bug of the tool, told to the developer and, as an error, to the model.
      this.logger.error(`Tool ${name} (${tool.owner}) returned a result with a malformed content block`);
      return textResult(`Tool ${name} produced an invalid result: a malformed content block`, true);
    }
    if (!tool.checkOutput) return toCallToolResult(value);
    const outcome = toStructuredResult(value, tool.checkOutput);
    if ('result' in outcome) return outcome.result;
    const problems = outcome.problems.join('; ');
    // The tool broke its own contract: the model cannot fix that, the developer must.
    this.logger.error(`Tool ${name} (${tool.owner}) returned a result its outputSchema refuses: ${problems}`);
    return textResult(`Tool ${name} produced an invalid result: ${problems}`, true);
  }
}
