import { HttpException, IntrinsicException } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { ErrorCode, internalError, invalidParams, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { CallAnswers, CallStand } from './call-answers.js';
import type { Logger } from '@nestjs/common';
import { describeItem } from './item-request.js';

/** The message of an `HttpException`, as a client may read it. */
export function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return typeof message === 'string' ? message : error.message;
}

/** Whether a failure is the caller's to fix (a pipe's `BadRequestException`, a `NotFoundException`). */
export function isClientError(error: unknown): error is HttpException {
  return error instanceof HttpException && error.getStatus() < 500;
}

/**
 * Logs a failure answered as an internal error, which tells the client nothing: the stack goes to
 * the log, unless Nest's exception handler has logged it already (it does for an `Error` thrown past
 * the pipeline, and skips intrinsic exceptions and thrown non-Errors).
 */
export function logInternalFailure(logger: Logger, stand: CallStand, error: unknown, reported: boolean): void {
  const owner = stand.handler ? ` (${stand.handler.owner})` : '';
  const line = `${describeItem(stand.item)}${owner} failed; answered with an internal error`;
  if (reported && error instanceof Error && !(error instanceof IntrinsicException)) logger.error(line);
  else logger.error(line, error instanceof Error ? error.stack : String(error));
}

/**
 * The answers of requests that fail as JSON-RPC errors (`resources/read`, `prompts/get`,
 * `completion/complete`): a {@link JsonRpcError} is answered as it is, an `HttpException` below 500
 * becomes -32602 with its message, anything else is logged and answered -32603 without details; a
 * timeout is -32001.
 */
export function jsonRpcAnswers(logger: Logger): CallAnswers<never> {
  return {
    logger,
    failed(error, stand, reported) {
      if (error instanceof JsonRpcError || error instanceof McpCallAbortedError) throw error;
      if (isClientError(error)) throw invalidParams(`${describeItem(stand.item)}: ${httpExceptionMessage(error)}`);
      logInternalFailure(logger, stand, error, reported);
      throw internalError();
    },
    aborted(reason, stand) {
      if (reason instanceof McpCallAbortedError && reason.kind === 'timeout') {
        throw new JsonRpcError(ErrorCode.RequestTimeout, `${describeItem(stand.item)} timed out`);
      }
      throw internalError();
    },
  };
}
