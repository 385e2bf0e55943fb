import { Method } from './methods.js';

/**
 * The methods of the legacy era (2025-11-25 and earlier), served inside a session opened by
 * `initialize` (which the transport handles itself, as it creates the session).
 */
export const LEGACY_METHODS: ReadonlySet<string> = new Set([
  Method.Ping,
  Method.ToolsList,
  Method.ToolsCall,
  Method.LoggingSetLevel,
  Method.ResourcesList,
  Method.ResourceTemplatesList,
  Method.ResourcesRead,
  Method.ResourcesSubscribe,
  Method.ResourcesUnsubscribe,
  Method.PromptsList,
  Method.PromptsGet,
  Method.CompletionComplete,
  // The experimental tasks of 2025-11-25 (served when a tool supports tasks).
  Method.TasksGet,
  Method.TasksResult,
  Method.TasksList,
  Method.TasksCancel,
]);

/** The notifications a legacy client sends. */
export const LEGACY_NOTIFICATIONS: ReadonlySet<string> = new Set([
  Method.Initialized,
  Method.Cancelled,
  Method.RootsListChanged,
]);

/** The legacy era as the dispatcher takes it: its methods and notifications, results as handlers return them. */
export const LEGACY_ERA = Object.freeze({ methods: LEGACY_METHODS, notifications: LEGACY_NOTIFICATIONS });

/**
 * The legacy era served without sessions (`sessions.enabled: false`): a subscription would need a
 * session to outlive its request, and no notification can act on anything (cancelling is closing
 * the response).
 */
export const SESSIONLESS_LEGACY_ERA = Object.freeze({
  methods: new Set(
    [...LEGACY_METHODS].filter(
      (method) => method !== Method.ResourcesSubscribe && method !== Method.ResourcesUnsubscribe,
    ),
  ) as ReadonlySet<string>,
  notifications: new Set<string>() as ReadonlySet<string>,
});
