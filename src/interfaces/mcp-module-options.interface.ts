import type { CanActivate, Type } from '@nestjs/common';
import type { McpEras } from '../protocol/era-classifier.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type { CacheScope } from '../protocol/mcp.types.js';
import type { McpEventStore } from './mcp-event-store.interface.js';
import type { McpState } from './mcp-shared-state.interface.js';

/**
 * Options of {@link McpModule.forRoot} / `forRootAsync`'s factory.
 * Every optional value has its default in one place, `mcp-options.defaults.ts`.
 * @category Options
 */
export interface McpModuleOptions {
  /** `serverInfo.name` announced in `initialize`. */
  name: string;
  /** `serverInfo.version` announced in `initialize`. */
  version: string;
  /** Human-readable server name (`serverInfo.title`). */
  title?: string;
  /** Text that tells the client's model how to use this server (`instructions` in `initialize`). */
  instructions?: string;
  /**
   * Largest accepted POST body in bytes; larger ones get 413.
   * @default 4194304 (4 MiB)
   */
  maxBodyBytes?: number;
  /**
   * A session that sees no request, no call finishing and no open GET stream for this long is
   * ended, aborting any call still running in it.
   * @default 1800000 (30 minutes)
   */
  sessionIdleTimeoutMs?: number;
  /**
   * Live sessions at most; past it `initialize` gets 503.
   * @default 10000
   */
  maxSessions?: number;
  /**
   * Live 2025 sessions at most per identified principal (`sessionOwner`); past it that principal's
   * `initialize` gets 429 (with `Retry-After`) until one of its sessions ends (DELETE, or idle for
   * `sessionIdleTimeoutMs`), while other principals are unaffected. Without it one principal could
   * take every place under `maxSessions` and lock everyone else out. Anonymous sessions (the owner
   * is `undefined`) count against `maxSessions` only: nothing tells one anonymous client from
   * another, so a shared count would let one of them lock the others out. With shared `state`, the
   * count spans every instance. A whole number, or `Infinity` for no limit.
   * @default 100 (a user's hosts, windows and agents each hold a session or a few; 100 principals
   *   at least are needed to fill the default `maxSessions`)
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Server-to-client messages a session may hold undelivered: events its connections hold back
   * because the client does not read (past it the session ends), and messages waiting for a GET
   * stream (past it the oldest are dropped).
   * @default 1000
   */
  outboxLimit?: number;
  /**
   * Interval of SSE keep-alive comments on idle streams, in milliseconds; 0 disables them.
   * @default 15000
   */
  keepAliveMs?: number;
  /**
   * Origins allowed to call the endpoint (requests without `Origin` are always allowed).
   * Entries: an exact origin (`https://app.example.com`), an origin with any port
   * (`http://localhost:*`), or `'*'` for any origin.
   * @default loopback origins on any port (localhost, 127.0.0.1, [::1]; http and https)
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names (without port) the `Host` header may carry: the DNS-rebinding defence.
   * `'*'` allows any host.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  allowedHosts?: readonly string[];
  /**
   * Who a request acts for, as a string; a session answers only requests of the principal that
   * created it (others get 404, as if it did not exist), so a leaked session id is useless to
   * another user. `undefined` means anonymous: a session created anonymously is not bound.
   * Return `undefined` always to turn binding off.
   * @default `request.user.sub`, else `request.user.id` (as your authentication guard set them)
   */
  sessionOwner?: (request: unknown) => string | undefined;
  /**
   * Items per page of `tools/list` (and the other list methods); the client follows `nextCursor`
   * for more.
   * @default 100
   */
  pageSize?: number;
  /**
   * Reads the scopes `@McpScopes()` checks from `request.user`.
   * @default `user.scope` (a space-separated OAuth string), else `user.scopes` or `user.scp` (arrays or strings)
   */
  scopesOf?: (user: unknown) => readonly string[];
  /**
   * What a caller whose token lacks the scopes of an item (`@McpScopes()`, or a guard throwing
   * `McpInsufficientScopeException`) meets:
   * - `'hide'`: the item is left out of its lists, and a call answers as for an item that does not
   *   exist. Nothing is revealed about what the server offers to more privileged callers.
   * - `'challenge'`: the item is listed, and a call is answered with HTTP 403 and
   *   `WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…"`, the
   *   MCP authorization's step-up flow: the client asks for the scopes and retries (the official SDK
   *   client does). The scopes named are those the item requires and those the token holds, since a
   *   client may replace its scopes with the challenge's. A call inside a 2025-03-26 batch gets the
   *   same JSON-RPC error in a 200, since one status cannot answer several requests.
   * An item another of its guards denies stays hidden either way; a completion or a subscription
   * needs the scopes either way (it lists nothing).
   * @default 'hide'
   */
  scopeDenial?: 'hide' | 'challenge';
  /**
   * The least severe level of log messages (`ctx.log`, `session.log`) a session receives until its
   * client chooses one with `logging/setLevel`.
   * @default 'info'
   */
  defaultLogLevel?: LoggingLevel;
  /**
   * How long a request to the client (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) waits for its
   * answer before it fails and is withdrawn with `notifications/cancelled`. A call may pass its own.
   * @default 60000
   */
  clientRequestTimeoutMs?: number;
  /**
   * The `retry` (milliseconds) sent to 2025-11-25 clients before the server closes one of their
   * streams on purpose: how long they wait before reconnecting with `Last-Event-ID`.
   * @default 1000
   */
  sseRetryMs?: number;
  /**
   * Where the events of SSE streams are kept so a client that reconnects with `Last-Event-ID`
   * misses nothing. The default keeps, per session, the most recent `maxStoredEvents` events not
   * older than `storedEventMaxAgeMs`, in memory.
   * @default an InMemoryEventStore of this module instance
   */
  eventStore?: McpEventStore;
  /**
   * How long a POST body may go without a byte arriving before the request is answered 408 and its
   * connection closed: a client trickling its body (slowloris) holds a connection this long at most.
   * Headers are bounded by the HTTP server itself (`server.headersTimeout`, see the README).
   * @default 30000
   */
  bodyTimeoutMs?: number;
  /**
   * Which protocol eras the endpoint serves: `dual` serves stateless 2026-07-28 requests (those
   * whose `_meta` names a protocol version) beside 2025 sessions; `modern` answers 2025 traffic with
   * the unsupported-version error; `legacy` serves everything as 2025 traffic (2026 clients then
   * fall back to `initialize`).
   * @default 'dual'
   */
  eras?: McpEras;
  /**
   * Whether 2025 clients get sessions. `false` serves them as the official SDK v2 does by default,
   * for deployments that want no state at all (a tools-only server on many instances): `initialize`
   * gets no `Mcp-Session-Id`, every POST stands alone, GET and DELETE get 405. What needs a session
   * cannot work then and says so: no `listChanged` or resource `subscribe` capability, no batches,
   * `ctx.elicit()` / `sample()` / `listRoots()` refused, cancellation only by closing the response,
   * log messages at `defaultLogLevel`. Stateless 2026-07-28 requests are served as always.
   * @default true
   */
  legacySessions?: boolean;
  /**
   * Shared state for running several instances behind a load balancer: 2025 session records, the
   * session cap, stored events for resumes, answers to server requests, cancellations, session ends
   * and resource updates cross instances through it, so any instance serves any request. Made by
   * an adapter, `redisState({ client })` from `mcp42/redis`. Needs `stateSecret` (the same on every
   * instance), and cannot be combined with `eventStore` (the state keeps the events).
   * @default this process only
   */
  state?: McpState;
  /**
   * CORS for browser clients, tied to `allowedOrigins`: a page of an allowed origin may call the
   * endpoint and read its answers (`Mcp-Session-Id`, `WWW-Authenticate` exposed); its preflights are
   * answered with 204 before any guard. `true` for the defaults, or the options.
   * @default false (no CORS headers; OPTIONS gets 405)
   */
  cors?: boolean | McpCorsOptions;
  /**
   * The secret that seals what 2026-07-28 clients hand back (`requestState`) and list cursors, at
   * least 32 bytes. Give every instance of a deployment the same one, so any instance opens what
   * another sealed; keep it out of source control. To rotate it, give a list: the first seals, all
   * open (keep an old one until what it sealed has expired: `requestStateTtlMs`).
   * @default a random key of this process (seals then die with it; a note says so at bootstrap)
   */
  stateSecret?: string | Uint8Array | readonly (string | Uint8Array)[];
  /**
   * How long the `requestState` of a round that asked the client for input stays valid: the time a
   * user has to answer.
   * @default 900000 (15 minutes)
   */
  requestStateTtlMs?: number;
  /**
   * Caching hints (`ttlMs`, `cacheScope`) of 2026-07-28 results, per list and for `server/discover`
   * and resource reads; a resource or template may set its own with its `cache` option.
   * @default `ttlMs` 0 everywhere (fresh every time); `cacheScope` `private` for the lists and reads
   *   (guards may filter a list per caller; contents may depend on the caller), `public` for
   *   `server/discover`. A list configured `public` whose items have guards is warned about at bootstrap.
   */
  cache?: McpCacheOptions;
  /**
   * Open `subscriptions/listen` streams at most, in all; past it a new one is refused (HTTP 429).
   * @default 1000
   */
  maxListenStreams?: number;
  /**
   * Open `subscriptions/listen` streams at most per identified principal (`sessionOwner`).
   * Anonymous callers count against `maxListenStreams` only: one of them must not lock the others out.
   * @default 10
   */
  maxListenStreamsPerPrincipal?: number;
  /**
   * Events the default event store keeps per session (ignored with a custom `eventStore`).
   * @default 1000
   */
  maxStoredEvents?: number;
  /**
   * Characters of event data the default event store keeps per session, oldest dropped first
   * (ignored with a custom `eventStore`): large results must not make a session's history unbounded.
   * @default 4194304
   */
  maxStoredEventChars?: number;
  /**
   * Age past which the default event store drops an event (ignored with a custom `eventStore`).
   * @default 300000 (5 minutes)
   */
  storedEventMaxAgeMs?: number;
}

/**
 * The caching hints of one kind of result (2026-07-28, SEP-2549).
 * @category Options
 */
export interface McpCacheHintOptions {
  /** How long, in milliseconds, the client may treat the result as fresh (0: stale at once). */
  ttlMs?: number;
  /**
   * Who may cache it: `public` for results that are the same for every caller (shared caches may
   * serve them to anyone), `private` for results that may differ per caller.
   */
  scope?: CacheScope;
}

/**
 * Caching hints per kind of 2026-07-28 result.
 * @category Options
 */
export interface McpCacheOptions {
  discover?: McpCacheHintOptions;
  tools?: McpCacheHintOptions;
  prompts?: McpCacheHintOptions;
  resources?: McpCacheHintOptions;
  resourceTemplates?: McpCacheHintOptions;
  /** `resources/read`, unless the resource or template sets its own. */
  reads?: McpCacheHintOptions;
}

/**
 * A guard class or instance, as `@UseGuards()` takes them.
 * @category Options
 */
export type McpGuard = Type<CanActivate> | CanActivate;

/**
 * CORS settings of the endpoint (see `McpModuleOptions.cors`).
 * @category Options
 */
export interface McpCorsOptions {
  /**
   * Whether pages may send cookies or HTTP authentication (`Access-Control-Allow-Credentials`).
   * Refused with `allowedOrigins: ['*']`. Bearer tokens in `Authorization` need no credentials.
   * @default false
   */
  readonly credentials?: boolean;
  /**
   * How long a browser may keep a preflight's answer.
   * @default 600
   */
  readonly maxAgeSeconds?: number;
}

/**
 * Options that shape the module itself rather than its services: they are read when the module
 * is defined, so they are plain values in both `forRoot` and `forRootAsync`.
 * @category Options
 */
export interface McpModuleExtras {
  /**
   * Path of the MCP endpoint (POST, GET and DELETE).
   * @default 'mcp'
   */
  path?: string;
  /**
   * Guards run on every request to the endpoint, after global (`APP_GUARD`) guards.
   * @default []
   */
  guards?: McpGuard[];
  /**
   * Register the module's exported services globally.
   * @default false
   */
  isGlobal?: boolean;
}
