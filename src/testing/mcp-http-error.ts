/** The JSON-RPC error object a refusal carried in its body, when it had one. */
export interface McpHttpRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * An MCP request the application refused at the HTTP level: an endpoint guard's 401 or 403, a
 * throttler's 429, a 404 for an unknown session, a 5xx. `createMcpTestClient()` rejects with it when
 * the handshake is refused, and so does any later call of the client. (A JSON-RPC error answering
 * the request itself, such as a tool that is not found, rejects with the SDK's `McpError` as usual.)
 *
 * @example
 * await expect(createMcpTestClient(app)).rejects.toMatchObject({ status: 401, challenge: 'Bearer realm="mcp"' });
 */
export class McpHttpError extends Error {
  override readonly name = 'McpHttpError';
  /** The HTTP status (401, 403, 404, 429…). */
  readonly status: number;
  /** The response's headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The `WWW-Authenticate` challenge, when the refusal had one. */
  readonly challenge: string | undefined;
  /** The JSON-RPC error of the body, when the body was one. */
  readonly rpcError: McpHttpRpcError | undefined;
  /** The body as received (at most its first 4 KiB). */
  readonly body: string;

  constructor(status: number, headers: Readonly<Record<string, string>>, body: string) {
    const rpcError = rpcErrorOf(body);
    super(`HTTP ${status}${rpcError ? `: ${rpcError.message}` : body ? `: ${body.slice(0, 200)}` : ''}`);
    this.status = status;
    this.headers = headers;
    this.challenge = headers['www-authenticate'];
    this.rpcError = rpcError;
    this.body = body;
  }
}

function rpcErrorOf(body: string): McpHttpRpcError | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const error = parsed?.error;
    if (typeof error?.code !== 'number' || typeof error.message !== 'string') return undefined;
    return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  } catch {
    return undefined;
  }
}
