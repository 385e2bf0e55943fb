import { HttpException, Inject, Injectable, IntrinsicException, Logger, Optional } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import { executionArgs, type McpInvocation } from '../execution/mcp-invocation.js';
import { ABORTED, untilAborted } from '../execution/until-aborted.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import { httpExceptionMessage, McpRequestRunner } from '../execution/mcp-request.runner.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { internalError, invalidRequest } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CallToolParams, CallToolResult } from '../protocol/mcp.types.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import { ToolCallContext, type ToolCallSettings } from '../execution/handler-context.js';
import { isMalformedCallToolResult, textResult, toCallToolResult, toStructuredResult } from './tool-result.mapper.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { McpToolRegistry } from './tool.registry.js';

/** How far a call got: whether its failure went through Nest's exception handler (which logs). */
interface CallProgress {
  reported: boolean;
  /** Whether the guards let the caller through: before that, a timeout must not reveal the tool. */
  admitted: boolean;
}

/**
 * Runs `tools/call`: finds the tool, asks its guards, validates its arguments, runs it through its
 * Nest pipeline with an {@link McpContext}, and maps what it returns. Failures a model can act on
 * become `isError` results; anything else is logged and answered as a JSON-RPC internal error that
 * reveals nothing.
 *
 * A tool the caller's guards deny is answered exactly as an unknown tool: it is hidden from that
 * caller's `tools/list` too, and its existence is nobody else's business.
 *
 * The call's signal decides when waiting stops: a handler that ignores it does not hold the answer
 * back. A call the client cancelled gets no answer at all; one past its `timeoutMs`, or whose
 * session ended, gets an error result.
 */
@Injectable()
export class McpToolInvoker {
  private readonly logger = new Logger('McpTools');
  private readonly settings: ToolCallSettings;
  private readonly runner: McpRequestRunner;

  constructor(
    private readonly registry: McpToolRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    @Optional() runner?: McpRequestRunner,
  ) {
    this.runner = runner ?? new McpRequestRunner(options, registry.schemas);
    this.settings = {
      clientRequestTimeoutMs: options.clientRequestTimeoutMs,
      validators: registry.schemaValidators,
      logger: this.logger,
    };
  }

  private invocation(
    phase: McpInvocation['phase'],
    name: string,
    call: McpCallContext,
    args: object | undefined,
    context: McpContext | undefined,
  ): McpInvocation {
    return this.runner.invocation(phase, { kind: 'tool', name }, call, args, context);
  }

  /**
   * Whether the caller of `call` may see `tool` in `tools/list` (its guards let it through).
   * @param deadline settles when the listing has waited long enough: one timer per listing, not per tool.
   */
  isVisible(tool: RegisteredTool, call: McpCallContext, deadline?: Promise<void>): Promise<boolean> {
    return this.runner.isVisible(tool, { kind: 'tool', name: tool.definition.name }, call, deadline);
  }

  async call(params: CallToolParams, requestId: RequestId, call: McpCallContext): Promise<CallToolResult> {
    const { session } = call;
    // Checked and registered before the tool is even looked up, and before anything awaits: a second call
    // with the same id (say, in one batch) is refused alike for hidden and unknown tools, and a
    // cancellation that arrives while guards or validation run finds the call.
    if (session.isRunning(requestId)) {
      throw invalidRequest(`request id ${JSON.stringify(requestId)} is already in use by a running call`);
    }
    const controller = session.beginCall(requestId);
    const tool = this.registry.get(params.name);
    if (!tool) {
      session.endCall(requestId, controller);
      return unknownTool(params.name);
    }
    const { signal } = controller;
    const timer = tool.timeoutMs === undefined ? undefined : startTimeout(controller, tool);
    const context = new ToolCallContext(call, requestId, params.name, params._meta, signal, this.settings);
    const progress: CallProgress = { reported: false, admitted: false };
    try {
      // Guards, validation and the handler all race the signal: a hung guard does not outlast a
      // cancellation, the tool's timeout or the session.
      const outcome = await untilAborted(
        () => this.run(tool, params, call, context, progress),
        signal,
        (late) => this.reportLateFailure(tool, late),
      );
      if (outcome === ABORTED || signal.aborted) return this.abortedResult(tool, requestId, signal, progress.admitted);
      return outcome as CallToolResult;
    } catch (error) {
      if (error instanceof RequestCancelledError) throw error;
      return this.failureResult(tool, error, signal, requestId, progress);
    } finally {
      context.finish();
      if (timer) clearTimeout(timer);
      session.endCall(requestId, controller);
    }
  }

  /** Guards, argument validation, then the pipeline; stops early once the call's signal aborted. */
  private async run(
    tool: RegisteredTool,
    params: CallToolParams,
    call: McpCallContext,
    context: ToolCallContext,
    progress: CallProgress,
  ): Promise<CallToolResult | typeof ABORTED> {
    const raw = params.arguments ?? {};
    let target: PipelineTarget;
    try {
      target = await tool.target(call.httpRequest);
    } catch (error) {
      // As in tools/list: a request-scoped provider that cannot be built for this caller hides its tools.
      this.logger.error(
        `Tool ${params.name} (${tool.owner}) could not be prepared; answered as an unknown tool`,
        error instanceof Error ? error.stack : String(error),
      );
      return unknownTool(params.name);
    }
    const invocation = this.invocation('call', params.name, call, raw, context);
    if (!(await target.canActivate(executionArgs(invocation)))) {
      this.logger.debug(`Call of ${params.name} denied by its guards`);
      return unknownTool(params.name);
    }
    progress.admitted = true;
    const checked = await this.checkArguments(tool, raw);
    if (!checked.ok) return checked.result;
    if (context.signal.aborted) return ABORTED;
    progress.reported = target.reportsErrors;
    const value = await target.execute(executionArgs({ ...invocation, arguments: checked.value }));
    return this.toResult(tool, value);
  }

  private toResult(tool: RegisteredTool, value: unknown): CallToolResult {
    if (isMalformedCallToolResult(value)) {
      // Shaped like a result but not one a client accepts: sending it as JSON text would drop its
      // `isError` without a word. A bug of the tool, told to the developer and, as an error, to the model.
      this.logger.error(
        `Tool ${tool.definition.name} (${tool.owner}) returned a result with a malformed content block`,
      );
      return textResult(`Tool ${tool.definition.name} produced an invalid result: a malformed content block`, true);
    }
    if (!tool.checkOutput) return toCallToolResult(value);
    const outcome = toStructuredResult(value, tool.checkOutput);
    if ('result' in outcome) return outcome.result;
    const problems = outcome.problems.join('; ');
    // The tool broke its own contract: the model cannot fix that, the developer must.
    this.logger.error(
      `Tool ${tool.definition.name} (${tool.owner}) returned a result its outputSchema refuses: ${problems}`,
    );
    return textResult(`Tool ${tool.definition.name} produced an invalid result: ${problems}`, true);
  }

  /** What a failure of the pipeline becomes; throws for failures that must be JSON-RPC errors. */
  private failureResult(
    tool: RegisteredTool,
    error: unknown,
    signal: AbortSignal,
    requestId: RequestId,
    { reported, admitted }: CallProgress,
  ): CallToolResult {
    if (error instanceof McpToolError) return textResult(error.message, true);
    // A tool that stops because its signal aborted did what it was asked: not a server bug.
    if (signal.aborted) return this.abortedResult(tool, requestId, signal, admitted);
    // A pipe's BadRequestException, a NotFoundException from the handler: the caller's to fix.
    if (error instanceof HttpException && error.getStatus() < 500) {
      return textResult(`Tool ${tool.definition.name} failed: ${httpExceptionMessage(error)}`, true);
    }
    const log = `Tool ${tool.definition.name} (${tool.owner}) failed; answered with an internal error`;
    // Past the pipeline, Nest's exception handler has logged an Error with its stack already; it skips
    // intrinsic exceptions (HttpException) and thrown non-Errors.
    if (reported && error instanceof Error && !(error instanceof IntrinsicException)) this.logger.error(log);
    else this.logger.error(log, error instanceof Error ? error.stack : String(error));
    throw internalError();
  }

  /** The answer to a call whose signal aborted; none at all when the client cancelled it. */
  private abortedResult(
    tool: RegisteredTool,
    requestId: RequestId,
    signal: AbortSignal,
    admitted: boolean,
  ): CallToolResult {
    const reason: unknown = signal.reason;
    const kind = reason instanceof McpCallAbortedError ? reason.kind : undefined;
    this.logger.debug(`Tool ${tool.definition.name} stopped: ${String(reason)}`);
    if (kind === 'cancelled') throw new RequestCancelledError(requestId);
    // Timed out while its guards were still deciding: the caller may not know the tool exists.
    if (!admitted) return unknownTool(tool.definition.name);
    if (kind === 'timeout')
      return textResult(`Tool ${tool.definition.name} timed out after ${tool.timeoutMs} ms`, true);
    return textResult(
      `Tool ${tool.definition.name} was aborted: ${reason instanceof Error ? reason.message : 'aborted'}`,
      true,
    );
  }

  /** A handler that failed after its call was answered: worth a line, since nobody else hears of it. */
  private reportLateFailure(tool: RegisteredTool, error: unknown): void {
    if (error instanceof McpToolError) return;
    this.logger.debug(`Tool ${tool.definition.name} failed after its call was aborted: ${String(error)}`);
  }

  /** The arguments to call the tool with, or the error result that tells the model what is wrong. */
  private async checkArguments(
    tool: RegisteredTool,
    raw: Record<string, unknown>,
  ): Promise<{ ok: true; value: object } | { ok: false; result: CallToolResult }> {
    const { name } = tool.definition;
    try {
      const check = await tool.checkArguments(raw);
      if (check.ok) return check;
      return {
        ok: false,
        result: textResult(`Invalid arguments for tool ${name}:\n- ${check.problems.join('\n- ')}`, true),
      };
    } catch (error) {
      // class-transformer recurses: absurdly nested arguments overflow its stack. The client's fault, not ours.
      this.logger.debug(`Arguments of ${name} could not be validated: ${String(error)}`);
      return {
        ok: false,
        result: textResult(`Invalid arguments for tool ${name}: they could not be read (nested too deeply?)`, true),
      };
    }
  }
}

function unknownTool(name: string): CallToolResult {
  return textResult(`Unknown tool: ${name}`, true);
}

function startTimeout(controller: AbortController, tool: RegisteredTool): NodeJS.Timeout {
  const timer = setTimeout(() => {
    controller.abort(
      new McpCallAbortedError('timeout', `Tool ${tool.definition.name} timed out after ${tool.timeoutMs} ms`),
    );
  }, tool.timeoutMs);
  timer.unref();
  return timer;
}
