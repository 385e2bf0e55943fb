import { Injectable } from '@nestjs/common';
import { CallLifecycle } from '../execution/call-lifecycle.js';
import { kindLoggers } from '../execution/kind-loggers.js';
import type { MessageContext } from '../execution/message-context.js';
import type { CallCandidate } from '../execution/running-call.js';
import type { McpEra } from '../protocol/era-classifier.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import type { CallToolParams, CallToolResult, InputRequiredResult } from '../protocol/mcp.types.js';
import { readHeader } from '../protocol/header-value.js';
import { checkParamHeaders } from '../protocol/param-headers.js';
import { invalidToolArguments, toolAnswers, unknownTool } from './tool-answers.js';
import { isMalformedCallToolResult, textResult, toCallToolResult, toStructuredResult } from './tool-result.mapper.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { ToolStore } from './tool.store.js';

/** A tool's candidate, but for the arguments of one call. */
type ToolPlan = Omit<CallCandidate<CallToolResult>, 'raw'>;

/**
 * The answer to a tool that does not exist or that the caller may not see, per era: an `isError`
 * result for 2025 sessions (the model reads it), the -32602 protocol error 2026-07-28 prescribes.
 */
const UNKNOWN_TOOL: Readonly<Record<McpEra, (name: string) => CallToolResult>> = {
  legacy: unknownTool,
  modern: (name) => {
    throw invalidParams(`Unknown tool: ${name}`);
  },
};

/**
 * Serves `tools/call` on the one call lifecycle. What tools add to it: the tool is found by name;
 * an unknown tool, one the caller's guards deny and one aborted before they admitted the caller are
 * all answered `Unknown tool`; arguments the input refuses, failures a model can act on and
 * timeouts are `isError` results; a value is mapped to a `CallToolResult`, checked against the
 * tool's `outputSchema` when it has one. On 2026-07-28, arguments mirrored into `Mcp-Param-*`
 * headers are checked against them once the guards admit the caller (a hidden tool reveals nothing).
 */
@Injectable()
export class ToolCaller {
  private readonly logger = kindLoggers().tool;
  private readonly answers = toolAnswers(this.logger);
  private readonly plans = new WeakMap<RegisteredTool, ToolPlan>();

  constructor(
    private readonly tools: ToolStore,
    private readonly lifecycle: CallLifecycle,
  ) {}

  call(
    params: CallToolParams,
    call: MessageContext,
    requestId: RequestId,
  ): Promise<CallToolResult | InputRequiredResult> {
    const { name } = params;
    const unknown = UNKNOWN_TOOL[call.caller.era];
    const request = {
      kind: 'tool' as const,
      name,
      meta: params._meta,
      input: { method: Method.ToolsCall, ...params },
    };
    return this.lifecycle.run(this.answers, call, requestId, request, async (running) => {
      const tool = this.tools.get(name);
      if (!tool) return unknown(name);
      const plan = this.planOf(tool);
      const { paramHeaders } = tool;
      // Over stdio there is no header layer: the body is the only source, nothing is mirrored to check.
      const admitted =
        call.caller.era === 'modern' && call.transport !== 'stdio' && paramHeaders.length > 0
          ? () => checkParamHeaders(paramHeaders, params.arguments, (header) => readHeader(call.headers, header))
          : undefined;
      return running.serveOne({ ...plan, raw: params.arguments ?? {}, admitted }, () => unknown(name));
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
