// The public API of mcp42/terminus: the health indicator for @nestjs/terminus.
// Everything else in this folder is internal.

export { McpHealthIndicator } from './mcp-health.indicator.js';
