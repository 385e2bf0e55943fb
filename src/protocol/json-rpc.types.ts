/**
 * JSON-RPC 2.0 message shapes as MCP uses them.
 *
 * @see https://www.jsonrpc.org/specification
 */

/** A request id: MCP forbids `null`, so only strings and integers remain. */
export type RequestId = string | number;

/** Named parameters: MCP never uses positional (array) parameters. */
export type JsonRpcParams = Record<string, unknown>;

/** A request: the receiver must answer it with a response carrying the same `id`. */
export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly method: string;
  readonly params?: JsonRpcParams;
}

/** A notification: no `id`, and never answered. */
export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: JsonRpcParams;
}

/** The `error` member of a failed response. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A response carrying the request's result. */
export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly result: unknown;
}

/** A response carrying an error instead of a result. */
export interface JsonRpcFailure {
  readonly jsonrpc: '2.0';
  /** `null` only when the id of the offending message could not be read. */
  readonly id: RequestId | null;
  readonly error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
