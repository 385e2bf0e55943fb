/**
 * The shapes the 2026-07-28 revision adds (`schema/2026-07-28/schema.ts`): discovery, caching
 * hints, subscriptions and multi round-trip requests (MRTR).
 */

import type { JsonRpcParams } from './json-rpc.types.js';

/** Who may keep a cached result: any cache (`public`), or only caches of this caller's authorization (`private`). */
export type CacheScope = 'public' | 'private';

/** The caching hints of a result (SEP-2549): how long it stays fresh, and who may cache it. */
export interface CacheHint {
  /** Milliseconds the client may treat the result as fresh; 0 means stale at once. */
  readonly ttlMs: number;
  readonly cacheScope: CacheScope;
}

/** What a `subscriptions/listen` stream carries, as the client asks for it and as the server acknowledges it. */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  /** Tasks extension (`io.modelcontextprotocol/tasks`): the tasks whose `notifications/tasks` it wants. */
  readonly taskIds?: readonly string[];
}

/** One request the server needs the client to answer before it can complete the original one. */
export interface InputRequest {
  readonly method: string;
  readonly params: JsonRpcParams;
}

/**
 * Marks the interim results the call lifecycle makes: only they go out as `input_required`. A
 * handler's own value never does, whatever `resultType` it carries (one could otherwise send an
 * `input_required` without sealed state, which the revision forbids).
 */
export const INTERIM_RESULT: unique symbol = Symbol('mcp42:interim-result');

/** The interim result of an MRTR round: what to ask, and the sealed state the client echoes on its retry. */
export interface InputRequiredResult {
  readonly resultType: 'input_required';
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  readonly requestState?: string;
}

/** The MRTR fields of a retried `tools/call`, `prompts/get` or `resources/read`. */
export interface InputParams {
  /** The client's answers, by the keys of the `inputRequests` it answers. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The `requestState` of the previous round, echoed as it came. */
  readonly requestState?: string;
}
