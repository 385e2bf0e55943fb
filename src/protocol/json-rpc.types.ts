/**
 * JSON-RPC 2.0 message shapes as MCP uses them.
 *
 * @see https://www.jsonrpc.org/specification
 */

/** A request id: MCP forbids `null`, so only strings and integers remain. */
export type RequestId = string | number;

/** Named parameters: MCP never uses positional (array) parameters. */
export type JsonRpcParams = Record<string, unknown>;

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly method: string;
  readonly params?: JsonRpcParams;
}

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: JsonRpcParams;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly result: unknown;
}

export interface JsonRpcFailure {
  readonly jsonrpc: '2.0';
  /** `null` only when the id of the offending message could not be read. */
  readonly id: RequestId | null;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
