import type { Logger } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import type { CallAnswers } from '../execution/call-answers.js';
import { httpExceptionMessage, isClientError, logInternalFailure } from '../execution/failure-mapping.js';
import { internalError } from '../protocol/json-rpc.errors.js';
import type { CallToolResult } from '../protocol/mcp.types.js';
import { textResult } from './tool-result.mapper.js';

/** The answer to a tool that does not exist, or that the caller may not see: the same, word for word. */
export function unknownTool(name: string): CallToolResult {
  return textResult(`Unknown tool: ${name}`, true);
}

/** Arguments a tool's input refuses, each problem named for the model to correct. */
export function invalidToolArguments(name: string, problems: readonly string[] | undefined): CallToolResult {
  return problems === undefined
    ? textResult(`Invalid arguments for tool ${name}: they could not be read (nested too deeply?)`, true)
    : textResult(`Invalid arguments for tool ${name}:\n- ${problems.join('\n- ')}`, true);
}

/**
 * How a tool call answers what goes wrong: failures a model can act on are `isError` results
 * (`McpToolError`, an `HttpException` below 500, a timeout); anything else is logged and answered
 * as a JSON-RPC internal error that reveals nothing. A call aborted before its guards admitted the
 * caller is answered as an unknown tool: its existence is nobody else's business.
 */
export function toolAnswers(logger: Logger): CallAnswers<CallToolResult> {
  return {
    logger,
    failed(error, stand, reported) {
      const { name } = stand.item;
      if (error instanceof McpToolError) return textResult(error.message, true);
      if (isClientError(error)) return textResult(`Tool ${name} failed: ${httpExceptionMessage(error)}`, true);
      logInternalFailure(logger, stand, error, reported);
      throw internalError();
    },
    aborted(reason, { item, handler }) {
      if (!handler) return unknownTool(item.name);
      if (reason instanceof McpCallAbortedError && reason.kind === 'timeout') {
        return textResult(`Tool ${item.name} timed out after ${handler.timeoutMs} ms`, true);
      }
      return textResult(`Tool ${item.name} was aborted: ${reason instanceof Error ? reason.message : 'aborted'}`, true);
    },
  };
}
