import { isPlainObject } from './json-rpc.codec.js';
import { JsonRpcError, ErrorCode } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import { isLoggingLevel, LOGGING_LEVELS, type LoggingLevel } from './logging-level.js';
import type { ClientCapabilities, Implementation } from './mcp.types.js';

/** The `_meta` keys of the 2026-07-28 request envelope, and of the result and notification fields that answer it. */
export const MetaKey = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** What a 2026-07-28 request says about itself in `params._meta`: everything a server may know of its client. */
export interface RequestEnvelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  /** Present only when the client wants log messages for this request, at this level and above. */
  readonly logLevel?: LoggingLevel;
}

/**
 * Whether a message claims the modern era: its `params._meta` names a protocol version (whatever
 * the value; a bad one is the envelope's problem, not a reason to serve the message as 2025).
 */
export function claimsModernEra(params: unknown): boolean {
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  return isPlainObject(meta) && Object.hasOwn(meta, MetaKey.ProtocolVersion);
}

/**
 * Reads the envelope of a modern request.
 * @throws JsonRpcError -32602 naming the first missing or malformed field (`data.envelope` says
 *   which); on HTTP it is answered with 400.
 */
export function readEnvelope(params: JsonRpcParams | undefined): RequestEnvelope {
  const meta = params?._meta;
  if (!isPlainObject(meta)) throw envelopeError('_meta', 'missing');
  const version = meta[MetaKey.ProtocolVersion];
  if (version === undefined) throw envelopeError(MetaKey.ProtocolVersion, 'missing');
  if (typeof version !== 'string' || version.length === 0) {
    throw envelopeError(MetaKey.ProtocolVersion, 'must be a non-empty string');
  }
  const capabilities = meta[MetaKey.ClientCapabilities];
  if (capabilities === undefined) throw envelopeError(MetaKey.ClientCapabilities, 'missing');
  if (!isPlainObject(capabilities)) throw envelopeError(MetaKey.ClientCapabilities, 'must be an object');
  const clientInfo = meta[MetaKey.ClientInfo];
  if (
    clientInfo !== undefined &&
    !(isPlainObject(clientInfo) && typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string')
  ) {
    throw envelopeError(MetaKey.ClientInfo, 'must be an object with string name and version');
  }
  const logLevel = meta[MetaKey.LogLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    throw envelopeError(MetaKey.LogLevel, `must be one of ${LOGGING_LEVELS.join(', ')}`);
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    ...(clientInfo === undefined ? {} : { clientInfo: clientInfo as unknown as Implementation }),
    ...(logLevel === undefined ? {} : { logLevel }),
  };
}

function envelopeError(key: string, problem: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: _meta envelope: ${key}: ${problem}`, {
    envelope: { key, problem },
  });
}
