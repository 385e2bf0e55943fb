import { McpToolError } from './mcp-tool.error.js';

/**
 * A request the server sent the client (elicitation, sampling, roots) did not get a result: the
 * client answered with an error, did not answer in time, or cannot take such requests.
 *
 * It extends {@link McpToolError}: a tool that lets it escape fails its call with this message
 * for the model to read, rather than with an internal error.
 * @category Errors
 */
export class McpClientRequestError extends McpToolError {
  /**
   * @param code the JSON-RPC error code the client answered with; -32001 when it did not answer
   *   in time, -32601 when it did not declare the capability the request needs.
   * @param data the `data` of the client's error, if any.
   */
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpClientRequestError';
  }
}
