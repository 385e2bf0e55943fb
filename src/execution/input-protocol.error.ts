import { McpClientRequestError } from '../errors/mcp-client-request.error.js';

/**
 * A failure to get input from a stateless (2026-07-28) client that the protocol answers itself:
 * the request needs a capability the client did not declare (-32021), or the client's answer is
 * malformed (-32602). A handler may catch it as the {@link McpClientRequestError} it is; one that
 * lets it escape gets the JSON-RPC error, never a tool result or an internal error.
 */
export class InputProtocolError extends McpClientRequestError {
  constructor(message: string, code: number, data?: unknown) {
    super(message, code, data);
    this.name = 'McpClientRequestError';
  }
}
