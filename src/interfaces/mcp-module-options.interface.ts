import type { CanActivate, Type } from '@nestjs/common';
import type { McpEras } from '../protocol/era-classifier.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type { CacheScope } from '../protocol/mcp.types.js';
import type { McpEventStore } from './mcp-event-store.interface.js';
import type { McpState } from './mcp-shared-state.interface.js';
import type { McpTelemetry } from './mcp-telemetry.interface.js';

/**
 * Options of {@link McpModule.forRoot} / `forRootAsync`'s factory: the server's identity at the top,
 * then one group per concern. Every field of every group is optional; each has its default in one
 * place, `mcp-options.defaults.ts`. Unknown keys, at any depth, are refused at bootstrap (an option
 * of 0.x is told where it went: `maxSessions` → `limits.sessions`).
 * @category Options
 */
export interface McpModuleOptions {
  /** `serverInfo.name` announced to clients (`initialize`, `server/discover`). */
  name: string;
  /** `serverInfo.version` announced to clients. */
  version: string;
  /** Human-readable server name (`serverInfo.title`). */
  title?: string;
  /** Text that tells the client's model how to use this server (`instructions`). */
  instructions?: string;
  /**
   * Which decorated items this server serves, by name (tools, prompts), URI (resources) or URI
   * template (resource templates); a kind left out is not served. For an application with several
   * MCP servers: one server may serve every item, every other one names its own. A name that no
   * decorated item has fails bootstrap. Items added at run time through this server's registries are
   * served whatever this says.
   * @default every decorated item of the application
   */
  items?: McpServedItems;
  /**
   * Which protocol eras the endpoint serves: `dual` serves stateless 2026-07-28 requests (those
   * whose `_meta` names a protocol version) beside 2025 sessions; `modern` answers 2025 traffic with
   * the unsupported-version error; `legacy` serves everything as 2025 traffic (2026 clients then
   * fall back to `initialize`).
   * @default 'dual'
   */
  eras?: McpEras;
  /** The HTTP side of the endpoint: who may call it from where, CORS, timeouts of bodies and streams. */
  http?: McpHttpOptions;
  /** What one client, one principal or the whole server may hold: bodies, sessions, streams, queues, pages. */
  limits?: McpLimitsOptions;
  /** 2025 sessions: on or off, how long they live idle, how long they wait for the client. */
  sessions?: McpSessionsOptions;
  /** Who a request acts for and which scopes it holds, read from what your authentication guard set. */
  auth?: McpAuthOptions;
  /** Where the events of SSE streams are kept for clients that resume with `Last-Event-ID`, and how many. */
  resumability?: McpResumabilityOptions;
  /** State shared by several instances, and the secret that seals what clients hand back. */
  state?: McpStateOptions;
  /** Caching hints of 2026-07-28 results (SEP-2549). */
  cache?: McpCacheOptions;
  /**
   * OpenTelemetry traces and metrics by the MCP semantic conventions, made by `mcpTelemetry()` from
   * `mcp42/otel` (which needs `@opentelemetry/api`): one SERVER span per MCP request, its parent
   * read from `params._meta` or the HTTP headers, and the `mcp.server.*` metrics. See the
   * Observability guide.
   * @default no telemetry: nothing recorded, nothing paid
   */
  telemetry?: McpTelemetry;
  /** Controller routes served as tools (`@McpRoute()`): which headers reach them, how much comes back. */
  routes?: McpRoutesOptions;
  /** A stdio server (`transport: 'stdio'`): who its user is. */
  stdio?: McpStdioOptions;
  /** Tasks (tools declared with `task`): how long they are kept, how often clients poll, how many may run. */
  tasks?: McpTasksOptions;
}

/**
 * Controller routes served as tools (see {@link McpModuleOptions.routes} and `@McpRoute()`).
 * @category Options
 */
export interface McpRoutesOptions {
  /**
   * The headers of the MCP request a route-backed tool's in-process request carries, by name (any
   * case): the route's guards see the caller's credentials, and nothing else of the MCP request
   * (its cookies, session and protocol headers stay behind).
   * @default ['authorization']
   */
  forwardHeaders?: readonly string[];
  /**
   * Bytes a route's response body may have: a larger one is cut off and the call answered with an
   * error result saying so, rather than held in memory and sent to the model.
   * @default 4194304 (4 MiB)
   */
  maxResponseBytes?: number;
}

/**
 * A server on stdio (`transport: 'stdio'`, see {@link McpModuleOptions.stdio}). Ignored over HTTP.
 * @category Options
 */
export interface McpStdioOptions {
  /**
   * The user of every message, as `request.user` (`McpStdioRequest`): stdio has no headers and no
   * endpoint guards, and needs none: the process that spawned the server (Claude Desktop, an IDE,
   * a CLI) is the local user who configured it. Give what your guards and `auth.scopesOf` read, e.g.
   * `{ sub: 'local', scope: 'notes:read notes:write' }` for `@McpScopes()`. A function is called for
   * each message (a value read from the environment, say).
   * @default undefined (no user: items that require scopes stay hidden)
   */
  user?: unknown;
}

/**
 * The decorated items one server serves (see {@link McpModuleOptions.items}).
 * @category Options
 */
export interface McpServedItems {
  /** Tools, by name. */
  readonly tools?: readonly string[];
  /** Resources, by URI. */
  readonly resources?: readonly string[];
  /** Resource templates, by URI template. */
  readonly resourceTemplates?: readonly string[];
  /** Prompts, by name. */
  readonly prompts?: readonly string[];
}

/**
 * The HTTP side of the endpoint (see {@link McpModuleOptions.http}).
 * @category Options
 */
export interface McpHttpOptions {
  /**
   * Origins allowed to call the endpoint (requests without `Origin` are always allowed).
   * Entries: an exact origin (`https://app.example.com`), an origin with any port
   * (`http://localhost:*`), or `'*'` for any origin.
   * @default loopback origins on any port (localhost, 127.0.0.1, [::1]; http and https)
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names (without port) the `Host` header may carry: the DNS-rebinding defence.
   * `'*'` allows any host. Behind a proxy, list the name clients use.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  allowedHosts?: readonly string[];
  /**
   * CORS for browser clients, tied to `allowedOrigins`: a page of an allowed origin may call the
   * endpoint and read its answers (`Mcp-Session-Id`, `WWW-Authenticate` exposed); its preflights are
   * answered with 204 before any guard. `true` for the defaults, or the options.
   * @default false (no CORS headers; OPTIONS gets 405)
   */
  cors?: boolean | McpCorsOptions;
  /**
   * How long a POST body may go without a byte arriving before the request is answered 408 and its
   * connection closed: a client trickling its body (slowloris) holds a connection this long at most.
   * Headers are bounded by the HTTP server itself (`server.headersTimeout`).
   * @default 30000
   */
  bodyTimeoutMs?: number;
  /**
   * Interval of SSE keep-alive comments on idle streams, in milliseconds; 0 disables them.
   * @default 15000
   */
  keepAliveMs?: number;
  /**
   * The `retry` (milliseconds) sent to 2025-11-25 clients before the server closes one of their
   * streams on purpose: how long they wait before reconnecting with `Last-Event-ID`.
   * @default 1000
   */
  sseRetryMs?: number;
}

/**
 * What one client, one principal or the whole server may hold (see {@link McpModuleOptions.limits}).
 * @category Options
 */
export interface McpLimitsOptions {
  /**
   * Largest accepted POST body in bytes; larger ones get 413.
   * @default 4194304 (4 MiB)
   */
  bodyBytes?: number;
  /**
   * Live 2025 sessions at most; past it `initialize` gets 503.
   * @default 10000
   */
  sessions?: number;
  /**
   * Live 2025 sessions at most per identified principal (`auth.principalOf`); past it that
   * principal's `initialize` gets 429 (with `Retry-After`) until one of its sessions ends (DELETE,
   * or idle for `sessions.idleTimeoutMs`), while other principals are unaffected. Without it one
   * principal could take every place under `sessions` and lock everyone else out. Anonymous sessions
   * count against `sessions` only: nothing tells one anonymous client from another. With shared
   * `state`, the count spans every instance. A whole number, or `Infinity` for no limit.
   * @default 100 (a user's hosts, windows and agents each hold a session or a few; 100 principals at
   *   least are needed to fill the default `sessions`)
   */
  sessionsPerPrincipal?: number;
  /**
   * Open `subscriptions/listen` streams (2026-07-28) at most, in all; past it a new one is refused (HTTP 429).
   * @default 1000
   */
  listenStreams?: number;
  /**
   * Open `subscriptions/listen` streams at most per identified principal. Anonymous callers count
   * against `listenStreams` only: one of them must not lock the others out.
   * @default 10
   */
  listenStreamsPerPrincipal?: number;
  /**
   * Server-to-client messages a session may hold undelivered: events its connections hold back
   * because the client does not read (past it the session ends), and messages waiting for a GET
   * stream (past it the oldest are dropped). Bounds also what waits for the client and cannot be
   * dropped, each refused past it with JSON-RPC error -32000: requests to the client awaiting
   * answers (`ctx.elicit()`, `sample()`, `listRoots()`), and a task's pending input requests (with
   * `outboxChars` for their size).
   * @default 1000
   */
  outboxMessages?: number;
  /**
   * Characters of server-to-client messages a session may hold undelivered, as `outboxMessages`
   * counts them: past it a stalled reader's session ends, and the oldest messages waiting for a GET
   * stream are dropped. A 2026-07-28 response stream past it is cut (a `subscriptions/listen`
   * stream too: its client listens again). A task's pending input requests hold at most this many
   * characters (a new one past it is refused with -32000). Without it, a tool that logs 1 MB
   * messages to a client that stopped reading would hold `outboxMessages` megabytes.
   * @default 4194304 (4 Mi characters, as a POST body may hold)
   */
  outboxChars?: number;
  /**
   * Characters of server-to-client messages the application holds for all its clients together,
   * across all its MCP servers: what connections hold back because their clients do not read
   * (sessions, 2026-07-28 response and listen streams), messages waiting for a GET stream, the
   * default event store's events, and, with shared state, messages and events on their way to it.
   * Past it, the session or stream holding the most is relieved, one step at a time: its
   * connections that hold messages back are cut (the client may resume from its stored events),
   * then what waits for a GET stream is dropped, then its stored events, and finally it ends. A
   * write to the shared state that finds no room even then is not made (the message is dropped,
   * or sent live without being stored). A thousand stalled readers then cost this much, not a
   * thousand outboxes.
   *
   * One budget per Nest application, not per server and not per process: what a process can
   * spare does not grow with the servers in it, and two applications in one process share nothing.
   * When its servers give different values, the smallest holds.
   * @default a 64th of the V8 heap limit (64 Mi characters under the default 4 GB heap; 16 Mi in a 1 GB one)
   */
  bufferedChars?: number;
  /**
   * Items per page of `tools/list` (and the other list methods); the client follows `nextCursor`
   * for more.
   * @default 100
   */
  pageSize?: number;
}

/**
 * 2025 sessions (see {@link McpModuleOptions.sessions}).
 * @category Options
 */
export interface McpSessionsOptions {
  /**
   * Whether 2025 clients get sessions. `false` serves them as the official SDK v2 does by default,
   * for deployments that want no state at all (a tools-only server on many instances): `initialize`
   * gets no `Mcp-Session-Id`, every POST stands alone, GET and DELETE get 405. What needs a session
   * cannot work then and says so: no `listChanged` or resource `subscribe` capability, no batches,
   * `ctx.elicit()` / `sample()` / `listRoots()` refused, cancellation only by closing the response,
   * log messages at `defaultLogLevel`. Stateless 2026-07-28 requests are served as always.
   * @default true
   */
  enabled?: boolean;
  /**
   * A session that sees no request, no call finishing and no open GET stream for this long is
   * ended, aborting any call still running in it.
   * @default 1800000 (30 minutes)
   */
  idleTimeoutMs?: number;
  /**
   * How long a request to the client (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) waits for its
   * answer before it fails and is withdrawn with `notifications/cancelled`. A call may pass its own.
   * @default 60000
   */
  clientRequestTimeoutMs?: number;
  /**
   * The least severe level of log messages (`ctx.log`, `session.log`) a session receives until its
   * client chooses one with `logging/setLevel`; also the level of requests without a session.
   * @default 'info'
   */
  defaultLogLevel?: LoggingLevel;
}

/**
 * Who a request acts for, and its scopes (see {@link McpModuleOptions.auth}).
 * @category Options
 */
export interface McpAuthOptions {
  /**
   * Who a request acts for (its principal), as a string, read from what your authentication guard
   * set. A 2025 session answers only requests of the principal that created it (others get 404, as
   * if it did not exist), so a leaked session id is useless to another user; the per-principal
   * limits count by it; sealed state opens only for it. `undefined` means anonymous: a session
   * created anonymously is not bound. Return `undefined` always to turn binding off.
   * @default `request.user.sub`, else `request.user.id` ({@link defaultPrincipalOf})
   */
  principalOf?: (request: unknown) => string | undefined;
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
}

/**
 * Stored events for resumable streams (see {@link McpModuleOptions.resumability}).
 * @category Options
 */
export interface McpResumabilityOptions {
  /**
   * Where the events of SSE streams are kept so a client that reconnects with `Last-Event-ID`
   * misses nothing. The default keeps, per session, the most recent `maxEvents` events not older
   * than `maxEventAgeMs`, in memory. Not with `state.shared`, which keeps them itself.
   * @default an in-memory store of this module instance
   */
  eventStore?: McpEventStore;
  /**
   * Events the default event store keeps per session (ignored with a custom `eventStore`).
   * @default 1000
   */
  maxEvents?: number;
  /**
   * Characters of event data the default event store keeps per session, oldest dropped first
   * (ignored with a custom `eventStore`): large results must not make a session's history unbounded.
   * @default 4194304
   */
  maxEventChars?: number;
  /**
   * Age past which the default event store drops an event (ignored with a custom `eventStore`).
   * @default 300000 (5 minutes)
   */
  maxEventAgeMs?: number;
}

/**
 * Tasks of tools declared with `task` (see {@link McpModuleOptions.tasks}): the 2026-07-28 extension
 * `io.modelcontextprotocol/tasks` and the tasks of 2025-11-25.
 * @category Options
 */
export interface McpTasksOptions {
  /**
   * How long a task is kept from its creation when the client does not ask for a TTL (2025-11-25
   * `params.task.ttl`; 2026-07-28 clients never do): its status, then its result or error, are
   * readable until then, and it is forgotten after (`tasks/get` then says it is unknown). A task
   * still running when its TTL ends is cancelled.
   * @default 3600000 (1 hour)
   */
  defaultTtlMs?: number;
  /**
   * The longest TTL a client may ask for; a longer one is cut to it.
   * @default 86400000 (24 hours)
   */
  maxTtlMs?: number;
  /**
   * How often clients are told to poll (`pollIntervalMs`, 2025-11-25 `pollInterval`).
   * @default 1000
   */
  pollIntervalMs?: number;
  /**
   * Unfinished tasks (working or waiting for input) one principal may have at once (anonymous
   * callers count as one principal); past it, a call that would start a task is refused with a
   * JSON-RPC error (-32000) naming this limit, until one of its tasks finishes. `Infinity` for none.
   * @default 100
   */
  maxPerPrincipal?: number;
  /**
   * Tasks kept in all, finished ones included until their TTL; past it, a call that would start a
   * task is refused with a JSON-RPC error (-32000) naming this limit.
   * @default 10000
   */
  maxTasks?: number;
}

/**
 * Shared state and sealing (see {@link McpModuleOptions.state}).
 * @category Options
 */
export interface McpStateOptions {
  /**
   * Shared state for running several instances behind a load balancer: 2025 session records, the
   * session caps, stored events for resumes, answers to server requests, cancellations, session ends
   * and resource updates cross instances through it, so any instance serves any request. Made by
   * an adapter: `redisState({ client })` from `mcp42/redis`. Needs `secret` (the same on every
   * instance), and cannot be combined with `resumability.eventStore` (the state keeps the events).
   * @default this process only
   */
  shared?: McpState;
  /**
   * The secret that seals what clients hand back (2026-07-28 `requestState`, list cursors), at
   * least 32 bytes. Give every instance of a deployment the same one, so any instance opens what
   * another sealed; keep it out of source control. To rotate it, give a list: the first seals, all
   * open (keep an old one until what it sealed has expired: `requestStateTtlMs`).
   * @default a random key of this process (seals then die with it; a warning says so in production)
   */
  secret?: string | Uint8Array | readonly (string | Uint8Array)[];
  /**
   * How long the `requestState` of a round that asked the client for input stays valid: the time a
   * user has to answer.
   * @default 900000 (15 minutes)
   */
  requestStateTtlMs?: number;
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
 * CORS settings of the endpoint (see `http.cors`).
 * @category Options
 */
export interface McpCorsOptions {
  /**
   * Whether pages may send cookies or HTTP authentication (`Access-Control-Allow-Credentials`).
   * Refused with `http.allowedOrigins: ['*']`. Bearer tokens in `Authorization` need no credentials.
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
   * How clients reach the server: `'http'`, an endpoint at `path` of the application's HTTP server
   * (Streamable HTTP); or `'stdio'`, newline-delimited JSON-RPC on the process's stdin and stdout,
   * for clients that spawn local servers (Claude Desktop, Claude Code, VS Code, Cursor). A stdio
   * server has no controller: run the application as an application context and hand it to
   * `McpModule.serveStdio(app)`. One stdio server per process.
   * @default 'http'
   */
  transport?: 'http' | 'stdio';
  /**
   * Path of the MCP endpoint (POST, GET and DELETE). Not used by a stdio server.
   * @default 'mcp'
   */
  path?: string;
  /**
   * Guards run on every request to the endpoint, after global (`APP_GUARD`) guards. HTTP only: they
   * guard the endpoint's controller, and a stdio server has none (there is no request to
   * authenticate); item guards (`@UseGuards()`, `@McpScopes()`) run on both transports.
   * @default []
   */
  guards?: (Type<CanActivate> | CanActivate)[];
  /**
   * Register the module's exported services globally.
   * @default false
   */
  isGlobal?: boolean;
}
