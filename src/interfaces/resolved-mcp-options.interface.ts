import type { McpModuleOptions } from './mcp-module-options.interface.js';

/**
 * The module's options with every default applied (see `mcp-options.defaults.ts`): what the
 * services read, injected with `MCP_RESOLVED_OPTIONS`. Typed here, below every service, so that
 * no service depends on where the defaults come from.
 * @internal
 */
export type ResolvedMcpOptions = Required<Omit<McpModuleOptions, 'title' | 'instructions' | 'stateSecret' | 'state'>> &
  Pick<McpModuleOptions, 'title' | 'instructions' | 'stateSecret' | 'state'>;
