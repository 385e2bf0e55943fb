import { isPlainObject } from './json-rpc.codec.js';
import { invalidParams } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import type { ClientCapabilities, Implementation, InitializeResult, ServerCapabilities } from './mcp.types.js';
import { negotiateProtocolVersion, type LegacyProtocolVersion } from './protocol-version.js';

/** What the server says about itself in every `initialize` result. */
export interface ServerDescription {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
}

/** An accepted `initialize`: what the session must remember, and what to answer. */
export interface Handshake {
  readonly protocolVersion: LegacyProtocolVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  readonly result: InitializeResult;
}

/**
 * Largest `initialize` params accepted, in characters of JSON. The session keeps the client's info
 * and capabilities for its whole life, so their size is bounded well below the body limit: real
 * clients send a few hundred bytes.
 */
export const MAX_INITIALIZE_PARAMS_LENGTH = 64 * 1024;

/** Largest client `capabilities` kept, in characters of JSON (real clients send well under 1 KiB). */
export const MAX_CLIENT_CAPABILITIES_LENGTH = 4 * 1024;

/** Longest `clientInfo` string kept; longer ones are cut. */
const MAX_CLIENT_INFO_STRING = 256;

/** The `clientInfo` fields kept for the session's life: enough to identify the client, and bounded. */
const CLIENT_INFO_FIELDS = ['name', 'version', 'title', 'description', 'websiteUrl'] as const;

/**
 * Validates `initialize` params and negotiates the version.
 *
 * The handshake keeps a bounded summary of what the client sent (see {@link summarizeClientInfo}), as
 * the session holds it for its whole life.
 *
 * @throws JsonRpcError -32602 when a field the schema requires is missing or mistyped, or the params are
 *   larger than {@link MAX_INITIALIZE_PARAMS_LENGTH} (capabilities: {@link MAX_CLIENT_CAPABILITIES_LENGTH}).
 */
export function acceptInitialize(params: JsonRpcParams | undefined, server: ServerDescription): Handshake {
  if (!params) throw invalidParams('initialize needs protocolVersion, capabilities and clientInfo');
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string') throw invalidParams('protocolVersion must be a string');
  if (!isPlainObject(capabilities)) throw invalidParams('capabilities must be an object');
  if (!isPlainObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
    throw invalidParams('clientInfo must be an object with string name and version');
  }
  if (jsonLength(params) > MAX_INITIALIZE_PARAMS_LENGTH) {
    throw invalidParams(`initialize params must not exceed ${MAX_INITIALIZE_PARAMS_LENGTH} characters`);
  }
  if (jsonLength(capabilities) > MAX_CLIENT_CAPABILITIES_LENGTH) {
    throw invalidParams(`capabilities must not exceed ${MAX_CLIENT_CAPABILITIES_LENGTH} characters`);
  }
  const negotiated = negotiateProtocolVersion(protocolVersion);
  const result: InitializeResult = {
    protocolVersion: negotiated,
    capabilities: server.capabilities,
    serverInfo: server.serverInfo,
    ...(server.instructions === undefined ? {} : { instructions: server.instructions }),
  };
  return {
    protocolVersion: negotiated,
    clientInfo: summarizeClientInfo(clientInfo),
    clientCapabilities: capabilities,
    result,
  };
}

/** The identifying fields of `clientInfo`, strings cut to a bounded length (icons and the rest dropped). */
function summarizeClientInfo(clientInfo: Record<string, unknown>): Implementation {
  const kept: Record<string, string> = {};
  for (const field of CLIENT_INFO_FIELDS) {
    const value = clientInfo[field];
    if (typeof value === 'string') kept[field] = value.slice(0, MAX_CLIENT_INFO_STRING);
  }
  return kept as unknown as Implementation;
}

/**
 * The length of a value's JSON text; `Infinity` for one nested deeper than `JSON.stringify` can walk
 * (`JSON.parse` takes any depth: a small body can hold thousands of levels).
 */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
