/** MCP method names the server handles or sends. */
export const McpMethod = {
  Initialize: 'initialize',
  Ping: 'ping',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  LoggingSetLevel: 'logging/setLevel',
  Initialized: 'notifications/initialized',
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  LogMessage: 'notifications/message',
  ToolsListChanged: 'notifications/tools/list_changed',
  RootsListChanged: 'notifications/roots/list_changed',
  ElicitationCreate: 'elicitation/create',
  SamplingCreateMessage: 'sampling/createMessage',
  RootsList: 'roots/list',
} as const;
