import type { Attributes } from '@opentelemetry/api';
import type { TelemetryOperation } from '../interfaces/mcp-telemetry.interface.js';
import type { JsonRpcResponse } from '../protocol/json-rpc.types.js';
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

/** What an operation is about, read once from its params: the span's name and its low-cardinality attributes. */
export interface OperationTarget {
  readonly spanName: string;
  /** Attributes of both the span and the duration metric. */
  readonly common: Attributes;
  /** Attributes of the span only (ids, URIs, addresses: too many values for a metric). */
  readonly spanOnly: Attributes;
}

/**
 * Names the operation `{mcp.method.name} {target}`, the target a tool or prompt name, or (when
 * asked) a resource URI; anything else is named by its method alone, as the conventions say.
 */
export function targetOf(operation: TelemetryOperation, serverName: string, uriInName: boolean): OperationTarget {
  const { method, params } = operation;
  const common: Attributes = { [ATTR_MCP_METHOD_NAME]: method, [ATTR_MCP42_SERVER_NAME]: serverName };
  const spanOnly: Attributes = {};
  let target: string | undefined;
  const name = params?.name;
  if (method === 'tools/call' && typeof name === 'string') {
    common[ATTR_GEN_AI_TOOL_NAME] = name;
    common[ATTR_GEN_AI_OPERATION_NAME] = 'execute_tool';
    target = name;
  } else if (method === 'prompts/get' && typeof name === 'string') {
    common[ATTR_GEN_AI_PROMPT_NAME] = name;
    target = name;
  } else if (RESOURCE_METHODS.has(method) && typeof params?.uri === 'string') {
    spanOnly[ATTR_MCP_RESOURCE_URI] = params.uri;
    if (uriInName) target = params.uri;
  }
  if (operation.protocolVersion !== undefined) common[ATTR_MCP_PROTOCOL_VERSION] = operation.protocolVersion;
  const { network } = operation;
  if (network) {
    common[ATTR_NETWORK_TRANSPORT] = network.transport;
    if (network.protocolName !== undefined) common[ATTR_NETWORK_PROTOCOL_NAME] = network.protocolName;
    if (network.protocolVersion !== undefined) common[ATTR_NETWORK_PROTOCOL_VERSION] = network.protocolVersion;
    if (network.clientAddress !== undefined) spanOnly[ATTR_CLIENT_ADDRESS] = network.clientAddress;
    if (network.clientPort !== undefined) spanOnly[ATTR_CLIENT_PORT] = network.clientPort;
  }
  // The conventions leave out a null or missing id; MCP has neither on a request.
  if (operation.id !== undefined) spanOnly[ATTR_JSONRPC_REQUEST_ID] = String(operation.id);
  if (operation.sessionId !== undefined) spanOnly[ATTR_MCP_SESSION_ID] = operation.sessionId;
  return { spanName: target === undefined ? method : `${method} ${target}`, common, spanOnly };
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
