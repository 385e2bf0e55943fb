import type { JsonRpcErrorObject, JsonRpcFailure, RequestId } from './json-rpc.types.js';

/**
 * Error codes defined by JSON-RPC 2.0 and the MCP specification.
 * @category Errors
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: a transport-level condition (session, version) the server refuses. */
  ServerError: -32000,
  /** MCP: a request that waited too long for its answer (used in `notifications/cancelled` reasons and errors). */
  RequestTimeout: -32001,
  /** MCP 2025: `resources/read` on a URI the server does not know (2026-07-28 answers -32602 instead). */
  ResourceNotFound: -32002,
  /** MCP 2026-07-28: the HTTP headers are missing, malformed, or do not match the body. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: serving the request needs a capability the client did not declare for it. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is not one the server serves. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * A failure that must reach the client as a JSON-RPC error object.
 * Method handlers throw it; the dispatcher turns it into an error response.
 * @category Errors
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }

  /** The `error` member of a response, `data` included only when set. */
  toErrorObject(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const parseError = (detail?: string): JsonRpcError =>
  new JsonRpcError(ErrorCode.ParseError, detail ? `Parse error: ${detail}` : 'Parse error');

export const invalidRequest = (detail?: string): JsonRpcError =>
  new JsonRpcError(ErrorCode.InvalidRequest, detail ? `Invalid Request: ${detail}` : 'Invalid Request');

export const methodNotFound = (method: string): JsonRpcError =>
  new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);

export const invalidParams = (detail?: string): JsonRpcError =>
  new JsonRpcError(ErrorCode.InvalidParams, detail ? `Invalid params: ${detail}` : 'Invalid params');

/** Deliberately says nothing about the cause: internals never reach the client. */
export const internalError = (): JsonRpcError => new JsonRpcError(ErrorCode.InternalError, 'Internal error');

export const serverError = (message: string): JsonRpcError => new JsonRpcError(ErrorCode.ServerError, message);

/** 2026-07-28: a header missing, malformed or not matching the body (`data.mismatch` names it). */
export const headerMismatch = (header: string, detail: string): JsonRpcError =>
  new JsonRpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${detail}`, { mismatch: { header } });

/** 2026-07-28: the server does not serve `requested`; `supported` lists what it does, newest first. */
export const unsupportedProtocolVersion = (requested: string, supported: readonly string[]): JsonRpcError =>
  new JsonRpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
    supported: [...supported],
    requested,
  });

/** Builds the error response for `id` (or `null` when the id could not be read). */
export function errorResponse(id: RequestId | null, error: JsonRpcError | JsonRpcErrorObject): JsonRpcFailure {
  return {
    jsonrpc: '2.0',
    id,
    error: error instanceof JsonRpcError ? error.toErrorObject() : error,
  };
}
