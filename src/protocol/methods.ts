/** MCP method names the server handles or sends. */
export const Method = {
  Initialize: 'initialize',
  Ping: 'ping',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  LoggingSetLevel: 'logging/setLevel',
  ResourcesList: 'resources/list',
  ResourceTemplatesList: 'resources/templates/list',
  ResourcesRead: 'resources/read',
  ResourcesSubscribe: 'resources/subscribe',
  ResourcesUnsubscribe: 'resources/unsubscribe',
  PromptsList: 'prompts/list',
  PromptsGet: 'prompts/get',
  CompletionComplete: 'completion/complete',
  /** 2026-07-28: what the server speaks and serves. */
  ServerDiscover: 'server/discover',
  /** 2026-07-28: a long-lived stream of the change notifications the client opts in to. */
  SubscriptionsListen: 'subscriptions/listen',
  /** Tasks (2026-07-28 extension and 2025-11-25): a task's state, its result inlined once it has one. */
  TasksGet: 'tasks/get',
  /** 2026-07-28 tasks extension: the client's answers to what a task asks. */
  TasksUpdate: 'tasks/update',
  TasksCancel: 'tasks/cancel',
  /** 2025-11-25 tasks only: the result of a task, once it has one. */
  TasksResult: 'tasks/result',
  /** 2025-11-25 tasks only: the caller's tasks, paginated. */
  TasksList: 'tasks/list',
  /** 2025-11-25 tasks: a task's status changed. */
  TasksStatus: 'notifications/tasks/status',
  /** 2026-07-28 tasks extension: a task's state changed (on `subscriptions/listen`). */
  Tasks: 'notifications/tasks',
  Initialized: 'notifications/initialized',
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  LogMessage: 'notifications/message',
  ToolsListChanged: 'notifications/tools/list_changed',
  ResourcesListChanged: 'notifications/resources/list_changed',
  ResourceUpdated: 'notifications/resources/updated',
  PromptsListChanged: 'notifications/prompts/list_changed',
  RootsListChanged: 'notifications/roots/list_changed',
  SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
  ElicitationCreate: 'elicitation/create',
  SamplingCreateMessage: 'sampling/createMessage',
  RootsList: 'roots/list',
} as const;
