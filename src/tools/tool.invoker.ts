import { Inject, Injectable, Logger } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.defaults.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { internalError, invalidRequest } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CallToolParams, CallToolResult } from '../protocol/mcp.types.js';
import type { McpCallContext } from '../server/mcp-call-context.js';
import { validateArguments, type ArgumentsCheck } from './tool-arguments.validator.js';
import { ToolCallContext, type ToolCallSettings } from './tool-call.context.js';
import { textResult, toCallToolResult } from './tool-result.mapper.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { McpToolRegistry } from './tool.registry.js';

/** Stands for "the signal aborted first" in a race with the handler. */
const ABORTED = Symbol('aborted');

/**
 * Runs `tools/call`: finds the tool, validates its arguments, calls it with an {@link McpContext}
 * and maps what it returns. Failures a model can act on become `isError` results; anything else is
 * logged and answered as a JSON-RPC internal error that reveals nothing.
 *
 * The call's signal decides when waiting stops: a handler that ignores it does not hold the answer
 * back. A call the client cancelled gets no answer at all; one past its `timeoutMs`, or whose
 * session ended, gets an error result.
 */
@Injectable()
export class McpToolInvoker {
  private readonly logger = new Logger('McpTools');
  private readonly settings: ToolCallSettings;

  constructor(
    private readonly registry: McpToolRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
  ) {
    this.settings = { clientRequestTimeoutMs: options.clientRequestTimeoutMs, logger: this.logger };
  }

  async call(params: CallToolParams, requestId: RequestId, call: McpCallContext): Promise<CallToolResult> {
    const tool = this.registry.get(params.name);
    if (!tool) return textResult(`Unknown tool: ${params.name}`, true);
    const { session } = call;
    if (session.isRunning(requestId)) {
      throw invalidRequest(`request id ${JSON.stringify(requestId)} is already in use by a running call`);
    }

    // Registered before anything awaits, so a second call with the same id (say, in one batch) is
    // refused, and a cancellation that arrives while the arguments are checked finds the call.
    const controller = session.beginCall(requestId);
    const { signal } = controller;
    const timer = tool.timeoutMs === undefined ? undefined : startTimeout(controller, tool);
    const context = new ToolCallContext(call, requestId, params.name, params._meta, signal, this.settings);
    try {
      const checked = await this.checkArguments(tool, params);
      if (signal.aborted) return this.abortedResult(tool, requestId, signal);
      if (!('args' in checked)) return checked;
      const value = await untilAborted(
        () => tool.handler(checked.args, context),
        signal,
        (late) => this.reportLateFailure(tool, late),
      );
      if (value === ABORTED || signal.aborted) return this.abortedResult(tool, requestId, signal);
      return toCallToolResult(value);
    } catch (error) {
      if (error instanceof McpToolError) return textResult(error.message, true);
      // A tool that stops because its signal aborted did what it was asked: not a server bug.
      if (signal.aborted) return this.abortedResult(tool, requestId, signal);
      this.logger.error(
        `Tool ${params.name} (${tool.owner}) failed`,
        error instanceof Error ? error.stack : String(error),
      );
      throw internalError();
    } finally {
      context.finish();
      if (timer) clearTimeout(timer);
      session.endCall(requestId, controller);
    }
  }

  /** The answer to a call whose signal aborted; none at all when the client cancelled it. */
  private abortedResult(tool: RegisteredTool, requestId: RequestId, signal: AbortSignal): CallToolResult {
    const reason: unknown = signal.reason;
    const kind = reason instanceof McpCallAbortedError ? reason.kind : undefined;
    this.logger.debug(`Tool ${tool.definition.name} stopped: ${String(reason)}`);
    if (kind === 'cancelled') throw new RequestCancelledError(requestId);
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
    params: CallToolParams,
  ): Promise<{ args: object } | CallToolResult> {
    const raw = params.arguments ?? {};
    if (!tool.input) {
      const unexpected = Object.keys(raw);
      if (unexpected.length === 0) return { args: raw };
      return textResult(`Tool ${params.name} takes no arguments; unexpected: ${unexpected.join(', ')}`, true);
    }
    let check: ArgumentsCheck<object>;
    try {
      check = await validateArguments(tool.input, raw);
    } catch (error) {
      // class-transformer recurses: absurdly nested arguments overflow its stack. The client's fault, not ours.
      this.logger.debug(`Arguments of ${params.name} could not be validated: ${String(error)}`);
      return textResult(`Invalid arguments for tool ${params.name}: they could not be read (nested too deeply?)`, true);
    }
    if (check.ok) return { args: check.value };
    return textResult(`Invalid arguments for tool ${params.name}:\n- ${check.problems.join('\n- ')}`, true);
  }
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

/**
 * The handler's value, or {@link ABORTED} as soon as the signal aborts, whichever comes first.
 * A handler still running then is left to finish on its own; its late failure goes to `onLate`.
 */
function untilAborted(run: () => unknown, signal: AbortSignal, onLate: (error: unknown) => void): Promise<unknown> {
  const work = Promise.resolve().then(run);
  if (signal.aborted) {
    work.catch(onLate);
    return Promise.resolve(ABORTED);
  }
  return new Promise<unknown>((resolve, reject) => {
    const onAbort = (): void => {
      work.catch(onLate);
      resolve(ABORTED);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
