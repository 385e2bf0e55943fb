import { isPlainObject } from './json-rpc.codec.js';
import { invalidParams } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import type { ClientCapabilities, Implementation, InitializeResult, ServerCapabilities } from './mcp.types.js';
import { negotiateProtocolVersion, type ProtocolVersion } from './protocol-version.js';

/** What the server says about itself in every `initialize` result. */
export interface ServerDescription {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
}

/** An accepted `initialize`: what the session must remember, and what to answer. */
export interface Handshake {
  readonly protocolVersion: ProtocolVersion;
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

/**
 * Validates `initialize` params and negotiates the version.
 *
 * @throws JsonRpcError -32602 when a field the schema requires is missing or mistyped, or the params are
 *   larger than {@link MAX_INITIALIZE_PARAMS_LENGTH}.
 */
export function acceptInitialize(params: JsonRpcParams | undefined, server: ServerDescription): Handshake {
  if (!params) throw invalidParams('initialize needs protocolVersion, capabilities and clientInfo');
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string') throw invalidParams('protocolVersion must be a string');
  if (!isPlainObject(capabilities)) throw invalidParams('capabilities must be an object');
  if (!isPlainObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
    throw invalidParams('clientInfo must be an object with string name and version');
  }
  if (JSON.stringify(params).length > MAX_INITIALIZE_PARAMS_LENGTH) {
    throw invalidParams(`initialize params must not exceed ${MAX_INITIALIZE_PARAMS_LENGTH} characters`);
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
    clientInfo: clientInfo as Implementation,
    clientCapabilities: capabilities,
    result,
  };
}
