/**
 * How an MCP message reached the server: `'http'` (Streamable HTTP, a POST to the endpoint) or
 * `'stdio'` (a line on the process's standard input, from the client that spawned it). Guards and
 * handlers read it from `McpExecutionContext.transport` and `McpContext.transport`; the union grows
 * with the transports mcp42 serves, so switch over it with a default branch.
 * @category Context
 */
export type McpTransportKind = 'http' | 'stdio';

/**
 * The request guards and handlers see for a message that came over stdio (`getRequest()`,
 * `McpContext.request`): there is no HTTP request, so no headers, and no endpoint guard ran to set
 * `user`. The process that spawned the server is its user: `user` is the module's `stdio.user`
 * option. One object per message, so request-scoped providers are per message, as over HTTP.
 * @category Context
 */
export interface McpStdioRequest {
  readonly transport: 'stdio';
  /** Always empty: stdio has no header layer. */
  readonly headers: Readonly<Record<string, never>>;
  /** The module's `stdio.user` (what a function there returned), as an authentication guard would set it. */
  user?: unknown;
}
