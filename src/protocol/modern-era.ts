import { isPlainObject } from './json-rpc.codec.js';
import {
  ErrorCode,
  headerMismatch,
  invalidParams,
  JsonRpcError,
  methodNotFound,
  unsupportedProtocolVersion,
} from './json-rpc.errors.js';
import type { JsonRpcFailure, JsonRpcMessage, JsonRpcParams, JsonRpcRequest } from './json-rpc.types.js';
import { decodeHeaderValue } from './header-value.js';
import { Method } from './methods.js';
import type { Implementation, ServerCapabilities } from './mcp.types.js';
import { INTERIM_RESULT, type CacheHint } from './modern.types.js';
import { TASK_RESULT, TASKS_EXTENSION } from './tasks.js';
import { isModernProtocolVersion } from './protocol-version.js';
import { MetaKey, readEnvelope, type RequestEnvelope } from './request-envelope.js';

/**
 * The rules of the modern era (2026-07-28) in one place: which methods it has, the order in which
 * a request is checked before it is served, how its errors map to HTTP statuses, and what every
 * result carries.
 */

/** The methods of the modern era; `initialize`, `ping`, `logging/setLevel` and `resources/(un)subscribe` are gone. */
export const MODERN_METHODS: ReadonlySet<string> = new Set([
  Method.ServerDiscover,
  Method.ToolsList,
  Method.ToolsCall,
  Method.ResourcesList,
  Method.ResourceTemplatesList,
  Method.ResourcesRead,
  Method.PromptsList,
  Method.PromptsGet,
  Method.CompletionComplete,
  Method.SubscriptionsListen,
  // The tasks extension's; `tasks/result` and `tasks/list` are 2025's only (-32601 here).
  Method.TasksGet,
  Method.TasksUpdate,
  Method.TasksCancel,
]);

/**
 * The notifications the modern era acts on over HTTP: none. Its one client notification,
 * `notifications/cancelled`, is stdio's: over HTTP closing the response stream is the cancellation,
 * and a notification naming a request id could be anyone's (ids are small, guessable numbers). The
 * stdio transport acts on it itself: its one client owns every request id on the pipe.
 */
export const MODERN_NOTIFICATIONS: ReadonlySet<string> = new Set();

/** The methods that may answer `input_required` (multi round-trip requests). */
export const INPUT_METHODS: ReadonlySet<string> = new Set([Method.ToolsCall, Method.PromptsGet, Method.ResourcesRead]);

/** The methods whose results carry caching hints. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  Method.ServerDiscover,
  Method.ToolsList,
  Method.PromptsList,
  Method.ResourcesList,
  Method.ResourceTemplatesList,
  Method.ResourcesRead,
]);

/** The server capability a method needs: a server that declares no prompts has no `prompts/list`. */
const CAPABILITY_OF: Readonly<Record<string, keyof ServerCapabilities>> = {
  [Method.ToolsList]: 'tools',
  [Method.ToolsCall]: 'tools',
  [Method.ResourcesList]: 'resources',
  [Method.ResourceTemplatesList]: 'resources',
  [Method.ResourcesRead]: 'resources',
  [Method.PromptsList]: 'prompts',
  [Method.PromptsGet]: 'prompts',
  [Method.CompletionComplete]: 'completions',
};

/** The body field `Mcp-Name` mirrors, per method. */
const NAME_FIELD: Readonly<Record<string, string>> = {
  [Method.ToolsCall]: 'name',
  [Method.PromptsGet]: 'name',
  [Method.ResourcesRead]: 'uri',
  // The tasks extension mirrors the task id (SEP-2663, routing headers).
  [Method.TasksGet]: 'taskId',
  [Method.TasksUpdate]: 'taskId',
  [Method.TasksCancel]: 'taskId',
};

/** Reads a request header by its lower-case name (`undefined` when absent). */
export type HeaderReader = (name: string) => string | undefined;

/**
 * The headers a binding mirrors the body into: Streamable HTTP's, read by name, or `NO_HEADER_LAYER`
 * for a binding that has none (stdio, where "all request metadata is carried inline in the message
 * body"): nothing is mirrored there, so there is nothing to compare, and no header may be missing.
 */
export type MirroredHeaders = HeaderReader | typeof NO_HEADER_LAYER;

/** The binding carries no headers (stdio): the body is the only source of a request's metadata. */
export const NO_HEADER_LAYER = null;

/** What the endpoint needs to judge a modern request: the versions it speaks and what it serves now. */
export interface ModernAdmission {
  /** The versions a request may name in its `_meta`, for the unsupported-version error. */
  readonly supportedVersions: readonly string[];
  /** The capabilities the server has now: a method whose capability is missing is not found. */
  readonly capabilities: ServerCapabilities;
}

/** A modern request refused before it is served, with the HTTP status the refusal takes. */
export class ModernRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: JsonRpcError,
  ) {
    super(error.message);
    this.name = 'ModernRefusal';
  }
}

/**
 * Checks a modern request before it is served, in the order the revision's conformance suite pins:
 * 1. the `_meta` envelope (400, -32602); 2. the `MCP-Protocol-Version` header equals its version
 * (400, -32020); 3. the version is one spoken (400, -32022); 4. the method exists, now (404, -32601);
 * 5. `Mcp-Method` equals the method and `Mcp-Name` the name or URI it mirrors (400, -32020).
 * Steps 2 and 5 are the header layer's: a binding without one ({@link NO_HEADER_LAYER}) skips them.
 * A tool's `Mcp-Param-*` headers and the client capabilities a handler needs are checked later, by
 * what serves the request.
 * @throws ModernRefusal
 */
export function admitModernRequest(
  request: JsonRpcRequest,
  header: MirroredHeaders,
  admission: ModernAdmission,
): RequestEnvelope {
  const envelope = refuseWith(400, () => readEnvelope(request.params));
  if (header !== NO_HEADER_LAYER) checkVersionHeader(header('mcp-protocol-version'), envelope.protocolVersion);
  if (!isModernProtocolVersion(envelope.protocolVersion)) {
    throw new ModernRefusal(400, unsupportedProtocolVersion(envelope.protocolVersion, admission.supportedVersions));
  }
  const { method } = request;
  if (!servesMethod(method, admission.capabilities)) throw new ModernRefusal(404, methodNotFound(method));
  if (header !== NO_HEADER_LAYER) checkMethodHeaders(request, header);
  return envelope;
}

function checkVersionHeader(versionHeader: string | undefined, protocolVersion: string): void {
  if (versionHeader === undefined) {
    throw new ModernRefusal(400, headerMismatch('MCP-Protocol-Version', 'the MCP-Protocol-Version header is missing'));
  }
  if (versionHeader !== protocolVersion) {
    throw new ModernRefusal(
      400,
      headerMismatch('MCP-Protocol-Version', 'the MCP-Protocol-Version header does not match _meta'),
    );
  }
}

function checkMethodHeaders(request: JsonRpcRequest, header: HeaderReader): void {
  const { method } = request;
  const methodHeader = header('mcp-method');
  if (methodHeader !== method) {
    const problem =
      methodHeader === undefined ? 'the Mcp-Method header is missing' : 'Mcp-Method does not match the method';
    throw new ModernRefusal(400, headerMismatch('Mcp-Method', problem));
  }
  const field = NAME_FIELD[method];
  if (field !== undefined) checkNameHeader(header('mcp-name'), request.params?.[field]);
}

/** The tasks extension's methods: served while the server declares the extension (a tool supports tasks). */
const TASKS_METHODS: ReadonlySet<string> = new Set([Method.TasksGet, Method.TasksUpdate, Method.TasksCancel]);

/** Whether the modern era serves `method` while the server has `capabilities`. */
export function servesMethod(method: string, capabilities: ServerCapabilities): boolean {
  if (!MODERN_METHODS.has(method)) return false;
  if (TASKS_METHODS.has(method)) return capabilities.extensions?.[TASKS_EXTENSION] !== undefined;
  const capability = CAPABILITY_OF[method];
  return capability === undefined || capabilities[capability] !== undefined;
}

function checkNameHeader(raw: string | undefined, body: unknown): void {
  if (raw === undefined) {
    // A body without the field is the params reader's to refuse (-32602), not a header problem.
    if (body === undefined) return;
    throw new ModernRefusal(400, headerMismatch('Mcp-Name', 'the Mcp-Name header is missing'));
  }
  const value = decodeHeaderValue(raw);
  if (value === undefined)
    throw new ModernRefusal(400, headerMismatch('Mcp-Name', 'Mcp-Name is not a valid header value'));
  if (value !== body) throw new ModernRefusal(400, headerMismatch('Mcp-Name', 'Mcp-Name does not match the body'));
}

function refuseWith<T>(status: number, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof JsonRpcError) throw new ModernRefusal(status, error);
    throw error;
  }
}

/**
 * The HTTP status of a modern JSON-RPC error raised while serving: -32601 is 404, the errors the
 * revision defines (-32020, -32021, -32022) are 400, anything else travels in a 200 like a result.
 */
export function modernErrorStatus(code: number): number {
  switch (code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}

/**
 * Reads the MRTR fields of a retried request.
 * @throws JsonRpcError -32602 when `inputResponses` is not an object or `requestState` not a string (each
 * answer is checked when a handler asks for it).
 */
export function readInputParams(params: JsonRpcParams): {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
} {
  const { inputResponses, requestState } = params;
  if (inputResponses !== undefined && !isPlainObject(inputResponses)) {
    throw invalidParams('inputResponses must be an object');
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw invalidParams('requestState must be a string');
  }
  return {
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(requestState === undefined ? {} : { requestState }),
  };
}

/**
 * A handler's result as the modern era sends it: `resultType` (`input_required` for the lifecycle's
 * interim results, `complete` for anything else, whatever it said), the server's identity in
 * `_meta`, and the caching hints of cacheable methods (never on an interim result).
 */
export function finishModernResult(
  result: Record<string, unknown>,
  serverInfo: Implementation,
  cache: CacheHint | undefined,
): Record<string, unknown> {
  const meta = isPlainObject(result._meta) ? result._meta : undefined;
  const finished: Record<string, unknown> = {
    ...result,
    resultType: resultTypeOf(result),
    _meta: meta ? { ...meta, [MetaKey.ServerInfo]: serverInfo } : { [MetaKey.ServerInfo]: serverInfo },
  };
  // Interim results are never cached: they depend on answers that are not part of any cache key.
  if (cache !== undefined && finished.resultType === 'complete') {
    finished.ttlMs = cache.ttlMs;
    finished.cacheScope = cache.cacheScope;
  }
  return finished;
}

/** `input_required` and `task` only for what the lifecycle branded so; `complete` for anything else. */
function resultTypeOf(result: Record<string, unknown>): string {
  const branded = result as { [INTERIM_RESULT]?: boolean; [TASK_RESULT]?: boolean };
  if (branded[INTERIM_RESULT] === true) return 'input_required';
  return branded[TASK_RESULT] === true ? 'task' : 'complete';
}

/** A resource not found is -32602 in the modern era, with the URI kept in `data` (the legacy -32002 must not be sent). */
export function modernError(error: JsonRpcError): JsonRpcError {
  return error.code === ErrorCode.ResourceNotFound
    ? new JsonRpcError(ErrorCode.InvalidParams, error.message, error.data)
    : error;
}

/** Checks the MRTR fields of the requests that may carry them, before they are routed. */
export function admitModernParams(request: JsonRpcRequest): void {
  if (INPUT_METHODS.has(request.method) && request.params) readInputParams(request.params);
}

/**
 * A refusal of a modern message whose id could not be read, as the revision writes it: without an
 * `id` (its schema has no `null` id; JSON-RPC 2.0's `null` is what 2025 traffic keeps getting).
 */
export function withoutUnreadableId(response: JsonRpcFailure): JsonRpcMessage {
  if (response.id !== null) return response;
  const { id: _unreadable, ...rest } = response;
  return rest as unknown as JsonRpcMessage;
}
