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
 * Validates `initialize` params and negotiates the version.
 *
 * @throws JsonRpcError -32602 when a field the schema requires is missing or mistyped.
 */
export function acceptInitialize(params: JsonRpcParams | undefined, server: ServerDescription): Handshake {
  if (!params) throw invalidParams('initialize needs protocolVersion, capabilities and clientInfo');
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string') throw invalidParams('protocolVersion must be a string');
  if (!isPlainObject(capabilities)) throw invalidParams('capabilities must be an object');
  if (!isPlainObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
    throw invalidParams('clientInfo must be an object with string name and version');
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
