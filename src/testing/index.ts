// The public API of `mcp42/testing`, the testing kit. Named exports only: any name added here
// becomes public API. It needs `@modelcontextprotocol/sdk` (an optional peer of this subpath only).
export { createMcpTestClient } from './create-mcp-test-client.js';
export { McpHttpError, type McpHttpRpcError } from './mcp-http-error.js';
export type { McpTestClientOptions, McpTestEra } from './mcp-test-client-options.interface.js';
