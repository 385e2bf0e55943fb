/**
 * The internals e2e tests read to check state a client cannot see (calls in flight, backlogs,
 * session ends): the one door from test/ into src/ besides src/index.ts (see
 * `.dependency-cruiser.mjs`, rule public-api-only).
 */
export { SessionStore } from '../../src/session/session.store.js';
export type { ClientSession } from '../../src/session/client-session.js';
export type { JsonRpcNotification } from '../../src/protocol/json-rpc.types.js';
export { SharedSessions } from '../../src/session/shared-sessions.js';
export { InMemoryEventStore } from '../../src/session/in-memory-event-store.js';
export { MAX_SUBSCRIPTIONS_PER_SESSION, MAX_SUBSCRIBED_URI_CHARS } from '../../src/session/session-subscriptions.js';
export { MCP_RESOLVED_OPTIONS } from '../../src/mcp.constants.js';
export type { ResolvedMcpOptions } from '../../src/interfaces/resolved-mcp-options.interface.js';
export { BufferBudget } from '../../src/session/buffer-budget.js';
export { LEGACY_METHODS, LEGACY_NOTIFICATIONS } from '../../src/protocol/legacy-era.js';
export { MODERN_METHODS } from '../../src/protocol/modern-era.js';
