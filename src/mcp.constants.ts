/** Reflect-metadata key under which `@McpTool()` stores its options on a method. */
export const MCP_TOOL_METADATA = 'mcp:tool';

/** Injection token of the module's resolved options (defaults applied). */
export const MCP_RESOLVED_OPTIONS = Symbol('mcp:resolved-options');

/** Injection token of the endpoint controller class created for this module instance. */
export const MCP_ENDPOINT_CONTROLLER = Symbol('mcp:endpoint-controller');

/** HTTP headers of the Streamable HTTP transport, lower-cased as Node exposes them. */
export const MCP_SESSION_ID_HEADER = 'mcp-session-id';
export const MCP_PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';
export const LAST_EVENT_ID_HEADER = 'last-event-id';
