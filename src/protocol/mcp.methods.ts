/** MCP method names the server handles or sends. */
export const McpMethod = {
  Initialize: 'initialize',
  Ping: 'ping',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  Initialized: 'notifications/initialized',
  Cancelled: 'notifications/cancelled',
  ToolsListChanged: 'notifications/tools/list_changed',
} as const;
