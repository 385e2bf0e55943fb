import type { IncomingHttpHeaders } from 'node:http';
import type { McpEra } from '../protocol/era-classifier.js';
import type { McpTransportKind } from './mcp-transport.interface.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  Meta,
} from '../protocol/mcp.types.js';

/**
 * One step of a call's progress, for {@link McpContext.reportProgress}.
 * @category Context
 */
export interface McpProgress {
  /** How far the call got; must grow with every report of one call. */
  readonly progress: number;
  /** The value `progress` reaches when the call is done, if known. */
  readonly total?: number;
  /** What the call is doing now, for the user. */
  readonly message?: string;
}

/**
 * Sends a log message to the client (`notifications/message`), if the level passes the one the
 * client chose with `logging/setLevel`. Call it with a level, or use the shorthand per level:
 * `ctx.log('info', data)` or `ctx.log.info(data)`.
 * @returns whether the message was sent.
 * @category Context
 */
export interface McpLogFunction {
  (level: LoggingLevel, data: unknown, logger?: string): boolean;
  debug(data: unknown, logger?: string): boolean;
  info(data: unknown, logger?: string): boolean;
  notice(data: unknown, logger?: string): boolean;
  warning(data: unknown, logger?: string): boolean;
  error(data: unknown, logger?: string): boolean;
  critical(data: unknown, logger?: string): boolean;
  alert(data: unknown, logger?: string): boolean;
  emergency(data: unknown, logger?: string): boolean;
}

/**
 * How long a request to the client may wait, what else may stop it, and how a stateless client's
 * answer to it is found again.
 * @category Context
 */
export interface McpClientRequestOptions {
  /** @default the module's `sessions.clientRequestTimeoutMs` (60 s) */
  readonly timeoutMs?: number;
  /** Withdraws the request when it aborts (the call's own `signal` always does). */
  readonly signal?: AbortSignal;
  /**
   * The request's key in `inputRequests` (2026-07-28): the client answers under it, and the
   * handler, run again with the answers, finds its answer by it. Keys are unique within a request.
   * @default its kind and its order among the handler's requests without a key (`elicitation-1`, `sampling-2`)
   */
  readonly key?: string;
}

/**
 * What a handler (tool, resource, template, prompt or completer) knows about the request it
 * serves, and how it talks back to the client: its second parameter.
 *
 * Everything a handler sends through it (progress, log messages, requests to the client) travels
 * on the SSE stream of the POST that carried the call, never on the session's GET stream, and
 * stops once the call has its result.
 *
 * The same handler serves both eras. A 2025 client has a session, and `elicit`, `sample` and
 * `listRoots` send it requests and wait for its answers. A stateless 2026-07-28 client has no
 * session: there they end the round with an `input_required` result, and the handler runs again,
 * from the start, when the client retries with the answers (see {@link McpContext.once}).
 * @category Context
 */
export interface McpContext {
  /** The `Mcp-Session-Id` of the calling session; `undefined` for a stateless (2026-07-28) request. */
  readonly sessionId: string | undefined;
  /** Whether the request comes from a 2025 session (`legacy`) or is a stateless 2026-07-28 one (`modern`). */
  readonly era: McpEra;
  /** The protocol version negotiated for the session, or named by the stateless request. */
  readonly protocolVersion: string;
  /** How the request arrived: over HTTP, or on stdin from the client that spawned the server. */
  readonly transport: McpTransportKind;
  /** The JSON-RPC id of the request (`tools/call`, `resources/read`, `prompts/get`, `completion/complete`). */
  readonly requestId: RequestId;
  /**
   * The name of the item served: the tool called, the resource (or template) read, the prompt got;
   * for a completion, the prompt or template whose argument is completed.
   */
  readonly name: string;
  /**
   * The client as it introduced itself: in `initialize`, or in the stateless request's `_meta`
   * (where it may not say, and this is `undefined`).
   */
  readonly clientInfo: Implementation | undefined;
  /** The capabilities the client declared: in `initialize`, or for this stateless request alone. */
  readonly clientCapabilities: ClientCapabilities;
  /** `_meta` of the request, if the client sent one. */
  readonly meta: Meta | undefined;
  /**
   * The HTTP request carrying this call, as the HTTP framework gives it (Express or Fastify); over
   * stdio, the message's `McpStdioRequest`.
   */
  readonly request: unknown;
  /** Headers of the HTTP request carrying this call (over stdio, none: an empty object). */
  readonly headers: IncomingHttpHeaders;
  /** `request.user`, as set by the authentication guard of the endpoint, if any (over stdio, the module's `stdio.user`). */
  readonly user: unknown;
  /**
   * Aborts when the call must stop: the client cancelled it (`notifications/cancelled`, or on
   * 2026-07-28 by closing the response stream), its item's `timeoutMs` passed, its session ended
   * (DELETE, idle timeout, outbox overflow, shutdown), or (2026-07-28) the round ended to ask the
   * client for input. Its `reason` is an `McpCallAbortedError` saying which. A cancelled call is not
   * answered, whatever the handler returns.
   */
  readonly signal: AbortSignal;
  /**
   * Reports progress (`notifications/progress`) with the progress token the client sent in
   * `_meta.progressToken`. Does nothing when the client sent none, when `progress` does not grow
   * (such a report is dropped), or after the call has its result.
   * @returns whether the notification was sent.
   */
  reportProgress(progress: McpProgress): boolean;
  /** Sends a log message to the client; see {@link McpLogFunction}. */
  readonly log: McpLogFunction;
  /**
   * Asks the user for input through the client (`elicitation/create`): a form described by a flat
   * JSON Schema of primitive properties, or (2025-11-25 and later) a URL to open.
   *
   * On a stateless (2026-07-28) request the first call ends the round: the request is answered
   * `input_required` and this promise rejects with the call's abort reason. When the client retries
   * with its answer, the handler runs again and the same call returns the answer at once.
   * @throws McpClientRequestError when the client did not declare `elicitation` (on 2026-07-28,
   *   uncaught, the request is answered -32021), answered with an error or a malformed answer, or
   *   did not answer within the timeout (the request is then withdrawn).
   */
  elicit(params: ElicitRequestParams, options?: McpClientRequestOptions): Promise<ElicitResult>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`).
   * @throws McpClientRequestError as {@link McpContext.elicit} does, for the `sampling` capability.
   */
  sample(params: CreateMessageRequestParams, options?: McpClientRequestOptions): Promise<CreateMessageResult>;
  /**
   * Asks the client for its roots (`roots/list`).
   * @throws McpClientRequestError as {@link McpContext.elicit} does, for the `roots` capability.
   */
  listRoots(options?: McpClientRequestOptions): Promise<ListRootsResult>;
  /**
   * A value computed once per request, however many rounds it takes (2026-07-28 MRTR runs the
   * handler again on every round): the first round runs `work`, the later ones get its value back
   * from the sealed `requestState`, unseen by the client. Use it for side effects that must not
   * repeat (creating an order before asking to confirm it) and for state of your own across rounds.
   * On a 2025 session `work` simply runs (once per key per call). Values must be JSON.
   */
  once<T>(key: string, work: () => T | Promise<T>): Promise<T>;
  /**
   * For a tool declared with `task: { support, start: 'handler' }`: the call becomes a task here,
   * once what the handler asked before is answered (2026-07-28 multi round-trip requests). The
   * request is answered with the task, and the handler runs again from the start inside it: what
   * it asked before this point is answered at once from the request's answers, and this promise
   * resolves. Resolves at once when the call runs as a task already, or when it cannot be one (the
   * client did not declare the tasks extension, for a tool that supports tasks as an option): the
   * handler then goes on in its request.
   */
  startTask(): Promise<void>;
  /**
   * Closes the call's SSE connection now, asking the client to reconnect after `retryMs` (SSE
   * polling, 2025-11-25 clients): the call goes on, and what it sends meanwhile, its result
   * included, waits in the event store for the client's `Last-Event-ID` reconnection. Frees the
   * connection during long waits.
   * @returns false when it did nothing: an older client, a stateless request (its streams are not
   *   resumable), or the call has its result already.
   */
  closeConnection(retryMs?: number): boolean;
}
