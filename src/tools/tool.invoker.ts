import { Injectable, Logger } from '@nestjs/common';
import { McpToolError } from '../errors/mcp-tool.error.js';
import { internalError, invalidRequest } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CallToolParams, CallToolResult } from '../protocol/mcp.types.js';
import type { McpCallContext } from '../server/mcp-call-context.js';
import { validateArguments, type ArgumentsCheck } from './tool-arguments.validator.js';
import { ToolCallContext } from './tool-call.context.js';
import { textResult, toCallToolResult } from './tool-result.mapper.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { McpToolRegistry } from './tool.registry.js';

/**
 * Runs `tools/call`: finds the tool, validates its arguments, calls it with an {@link McpContext}
 * and maps what it returns. Failures a model can act on become `isError` results; anything else is
 * logged and answered as a JSON-RPC internal error that reveals nothing.
 */
@Injectable()
export class McpToolInvoker {
  private readonly logger = new Logger('McpTools');

  constructor(private readonly registry: McpToolRegistry) {}

  async call(params: CallToolParams, requestId: RequestId, call: McpCallContext): Promise<CallToolResult> {
    const tool = this.registry.get(params.name);
    if (!tool) return textResult(`Unknown tool: ${params.name}`, true);
    const { session } = call;
    if (session.isRunning(requestId)) {
      throw invalidRequest(`request id ${JSON.stringify(requestId)} is already in use by a running call`);
    }

    // Registered before anything awaits, so a second call with the same id (say, in one batch) is refused.
    const signal = session.beginCall(requestId);
    try {
      const checked = await this.checkArguments(tool, params);
      if (!('args' in checked)) return checked;
      const value = await tool.handler(
        checked.args,
        new ToolCallContext(call, requestId, params.name, params._meta, signal),
      );
      return toCallToolResult(value);
    } catch (error) {
      if (error instanceof McpToolError) return textResult(error.message, true);
      // A tool that stops because its signal aborted did what it was asked: not a server bug.
      if (signal.aborted) {
        this.logger.debug(`Tool ${params.name} stopped: ${String(signal.reason)}`);
        return textResult(`Tool ${params.name} was aborted: ${abortReason(signal)}`, true);
      }
      this.logger.error(
        `Tool ${params.name} (${tool.owner}) failed`,
        error instanceof Error ? error.stack : String(error),
      );
      throw internalError();
    } finally {
      session.endCall(requestId);
    }
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

function abortReason(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : 'aborted';
}
