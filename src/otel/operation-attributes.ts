import type { Attributes } from '@opentelemetry/api';
import type { TelemetryCatalog, TelemetryOperation } from '../interfaces/mcp-telemetry.interface.js';
import type { JsonRpcResponse } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_CLIENT_PORT,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_MCP42_SERVER_NAME,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE,
} from './semconv.js';

/** The methods whose params name a resource by `uri` (`mcp.resource.uri`). */
const RESOURCE_METHODS: ReadonlySet<string> = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/resources/updated',
]);

/**
 * `mcp.method.name` of a method MCP does not define: the client's word, with no bound on its values,
 * recorded as OpenTelemetry records a value outside a known set (`http.request.method` does the same).
 */
export const OTHER_METHOD = '_OTHER';

/** The methods MCP defines, in either revision: the conventions' well-known values, and the newer ones. */
const KNOWN_METHODS: ReadonlySet<string> = new Set(Object.values(Method));

/** Which attribute holds an item a request names that the server does not have (on the span only). */
type UnknownItem = typeof ATTR_GEN_AI_TOOL_NAME | typeof ATTR_GEN_AI_PROMPT_NAME;

/**
 * What every operation of one kind shares (one method, target, protocol version and network): its
 * span name and its metric attributes, built once and reused, as are those of each way it failed.
 */
export interface OperationKind {
  readonly spanName: string;
  /** Attributes of both the span and the duration metric: the low-cardinality ones. */
  readonly metric: Attributes;
  /** `metric` with each failure's attributes, by `error.type`. */
  readonly failures: Map<string, Attributes>;
  /** Whether its params name a resource by `uri` (`mcp.resource.uri`). */
  readonly resourceMethod: boolean;
  /**
   * Set when the request names a tool or prompt the server does not have: the name asked for is put
   * on the span under this attribute, never in the span name nor on a metric.
   */
  readonly unknownItem?: UnknownItem;
}

/** Kinds remembered per server: a bound that costs nothing, though only names of existing items make kinds. */
const MAX_KINDS = 512;
/** Failure sets remembered per kind: JSON-RPC codes and exception names are few, but a bound costs nothing. */
const MAX_FAILURES = 32;

/**
 * The kinds of operations one server has seen. Describing a message is then one lookup by a short
 * key, then the per-message attributes (ids, URIs, addresses) on a copy of the kind's.
 */
export class OperationKinds {
  private readonly kinds = new Map<string, OperationKind>();
  /** Unset until the server's items are known: until then no item is named. */
  private catalog: TelemetryCatalog | undefined;

  constructor(
    private readonly serverName: string,
    private readonly uriInName: boolean,
  ) {}

  /** The server's items, asked whenever a request names one. */
  know(catalog: TelemetryCatalog): void {
    this.catalog = catalog;
  }

  /**
   * Names the operation `{mcp.method.name} {target}`, the target a tool or prompt name, or (when
   * asked) a resource URI, when the server has that item; anything else is named by its method alone,
   * as the conventions say when no low-cardinality target is available. A method MCP does not define
   * is `_OTHER`. Both are the client's words: named as they are, a client could make metric series
   * (and span names) without bound.
   */
  of(operation: TelemetryOperation): OperationKind {
    const { params, network } = operation;
    const method = KNOWN_METHODS.has(operation.method) ? operation.method : OTHER_METHOD;
    let target: string | undefined;
    let unknownItem: UnknownItem | undefined;
    const name = params?.name;
    if (method === 'tools/call' && typeof name === 'string') {
      if (this.catalog?.hasTool(name) === true) target = name;
      else unknownItem = ATTR_GEN_AI_TOOL_NAME;
    } else if (method === 'prompts/get' && typeof name === 'string') {
      if (this.catalog?.hasPrompt(name) === true) target = name;
      else unknownItem = ATTR_GEN_AI_PROMPT_NAME;
    } else if (this.uriInName && RESOURCE_METHODS.has(method) && typeof params?.uri === 'string') {
      if (this.catalog?.hasResource(params.uri) === true) target = params.uri;
    }
    // Control characters cannot occur in a method, a version or an HTTP version: the fields cannot run together.
    const key = `${method}\u0000${operation.protocolVersion ?? ''}\u0000${network?.transport ?? ''}\u0000${network?.protocolName ?? ''}\u0000${network?.protocolVersion ?? ''}\u0000${target ?? ''}\u0000${unknownItem ?? ''}`;
    let kind = this.kinds.get(key);
    if (kind === undefined) {
      kind = this.build(operation, method, target, unknownItem);
      // A server with very many items: a full cache starts again rather than keep the first names it saw for good.
      if (this.kinds.size >= MAX_KINDS) this.kinds.clear();
      this.kinds.set(key, kind);
    }
    return kind;
  }

  private build(
    operation: TelemetryOperation,
    method: string,
    target: string | undefined,
    unknownItem: UnknownItem | undefined,
  ): OperationKind {
    const { network } = operation;
    const metric: Attributes = { [ATTR_MCP_METHOD_NAME]: method, [ATTR_MCP42_SERVER_NAME]: this.serverName };
    if (method === 'tools/call') {
      if (target !== undefined) metric[ATTR_GEN_AI_TOOL_NAME] = target;
      metric[ATTR_GEN_AI_OPERATION_NAME] = 'execute_tool';
    } else if (method === 'prompts/get' && target !== undefined) {
      metric[ATTR_GEN_AI_PROMPT_NAME] = target;
    }
    if (operation.protocolVersion !== undefined) metric[ATTR_MCP_PROTOCOL_VERSION] = operation.protocolVersion;
    if (network) {
      metric[ATTR_NETWORK_TRANSPORT] = network.transport;
      if (network.protocolName !== undefined) metric[ATTR_NETWORK_PROTOCOL_NAME] = network.protocolName;
      if (network.protocolVersion !== undefined) metric[ATTR_NETWORK_PROTOCOL_VERSION] = network.protocolVersion;
    }
    return {
      spanName: target === undefined ? method : `${method} ${target}`,
      metric,
      failures: new Map(),
      resourceMethod: RESOURCE_METHODS.has(method),
      ...(unknownItem === undefined ? {} : { unknownItem }),
    };
  }
}

/**
 * The span's attributes: the kind's, and those of this message only (ids, URIs, addresses, the name of
 * a tool or prompt the server does not have: too many values for a metric). One literal with every key, absent ones `undefined` (which the API allows and
 * SDKs leave out): adding keys one by one to a copy took most of the time of describing a message.
 * The keys are the `ATTR_*` names, spelled out so the literal keeps one shape.
 */
export function spanAttributesOf(kind: OperationKind, operation: TelemetryOperation): Attributes {
  const { metric, resourceMethod, unknownItem } = kind;
  const { network, id } = operation;
  const uri = resourceMethod ? operation.params?.uri : undefined;
  // The conventions ask for the name whenever a request is about a tool or prompt; a span holds any value.
  const asked = unknownItem === undefined ? undefined : (operation.params?.name as string);
  return {
    'mcp.method.name': metric[ATTR_MCP_METHOD_NAME],
    'mcp42.server.name': metric[ATTR_MCP42_SERVER_NAME],
    'gen_ai.tool.name': unknownItem === ATTR_GEN_AI_TOOL_NAME ? asked : metric[ATTR_GEN_AI_TOOL_NAME],
    'gen_ai.operation.name': metric[ATTR_GEN_AI_OPERATION_NAME],
    'gen_ai.prompt.name': unknownItem === ATTR_GEN_AI_PROMPT_NAME ? asked : metric[ATTR_GEN_AI_PROMPT_NAME],
    'mcp.protocol.version': metric[ATTR_MCP_PROTOCOL_VERSION],
    'network.transport': metric[ATTR_NETWORK_TRANSPORT],
    'network.protocol.name': metric[ATTR_NETWORK_PROTOCOL_NAME],
    'network.protocol.version': metric[ATTR_NETWORK_PROTOCOL_VERSION],
    'mcp.resource.uri': typeof uri === 'string' ? uri : undefined,
    'client.address': network?.clientAddress,
    'client.port': network?.clientPort,
    // The conventions leave out a null or missing id; MCP has neither on a request.
    'jsonrpc.request.id': id === undefined ? undefined : String(id),
    'mcp.session.id': operation.sessionId,
  } satisfies Record<SpanAttributeKey, unknown>;
}

/** The keys of {@link spanAttributesOf}: checked against the conventions' names by the compiler. */
type SpanAttributeKey =
  | typeof ATTR_MCP_METHOD_NAME
  | typeof ATTR_MCP42_SERVER_NAME
  | typeof ATTR_GEN_AI_TOOL_NAME
  | typeof ATTR_GEN_AI_OPERATION_NAME
  | typeof ATTR_GEN_AI_PROMPT_NAME
  | typeof ATTR_MCP_PROTOCOL_VERSION
  | typeof ATTR_NETWORK_TRANSPORT
  | typeof ATTR_NETWORK_PROTOCOL_NAME
  | typeof ATTR_NETWORK_PROTOCOL_VERSION
  | typeof ATTR_MCP_RESOURCE_URI
  | typeof ATTR_CLIENT_ADDRESS
  | typeof ATTR_CLIENT_PORT
  | typeof ATTR_JSONRPC_REQUEST_ID
  | typeof ATTR_MCP_SESSION_ID;

/** The metric attributes of `kind` failing as `failure` says, built once per `error.type`. */
export function metricFailureOf(kind: OperationKind, failure: OperationFailure): Attributes {
  const errorType = String(failure.attributes[ATTR_ERROR_TYPE]);
  let attributes = kind.failures.get(errorType);
  if (attributes === undefined) {
    attributes = { ...kind.metric, ...failure.attributes };
    if (kind.failures.size < MAX_FAILURES) kind.failures.set(errorType, attributes);
  }
  return attributes;
}

/** How an operation failed, if it did: the attributes to add, and the span status message. */
export interface OperationFailure {
  readonly attributes: Attributes;
  readonly message: string;
}

/**
 * A JSON-RPC error is `error.type` and `rpc.response.status_code`, its code as a string; a tool
 * result with `isError` is `tool_error`; a request the client cancelled (never answered) is `cancelled`.
 */
export function failureOf(method: string, response: JsonRpcResponse | undefined): OperationFailure | undefined {
  if (response === undefined) {
    return { attributes: { [ATTR_ERROR_TYPE]: 'cancelled' }, message: 'The client cancelled the request' };
  }
  if ('error' in response) {
    const code = String(response.error.code);
    return {
      attributes: { [ATTR_ERROR_TYPE]: code, [ATTR_RPC_RESPONSE_STATUS_CODE]: code },
      message: response.error.message,
    };
  }
  if (method === 'tools/call' && isToolError(response.result)) {
    return { attributes: { [ATTR_ERROR_TYPE]: 'tool_error' }, message: 'The tool answered with isError' };
  }
  return undefined;
}

function isToolError(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}
