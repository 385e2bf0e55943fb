import type { IncomingMessage } from 'node:http';
import type { ServerTelemetry, TelemetryRefusal } from '../../interfaces/mcp-telemetry.interface.js';
import { isPlainObject } from '../../protocol/json-rpc.codec.js';
import { ErrorCode } from '../../protocol/json-rpc.errors.js';
import type { JsonRpcFailure, JsonRpcRequest } from '../../protocol/json-rpc.types.js';
import { isModernProtocolVersion } from '../../protocol/protocol-version.js';
import { MODERN_METHODS } from '../../protocol/modern-era.js';
import { MetaKey } from '../../protocol/request-envelope.js';
import { operationOf } from './traced-message.js';

/** The refusal cause of each error a 2026-07-28 request is refused with at the door but the envelope's. */
const CAUSES: Readonly<Record<number, TelemetryRefusal>> = {
  [ErrorCode.HeaderMismatch]: 'header_mismatch',
  [ErrorCode.UnsupportedProtocolVersion]: 'unsupported_protocol_version',
  [ErrorCode.MethodNotFound]: 'method_not_found',
};

/**
 * Records a 2026-07-28 request refused before it was served (its envelope, its headers, its version,
 * its method): one SERVER span ended in error with the JSON-RPC code as `error.type` and
 * `rpc.response.status_code`, the operation's duration, as for a request its dispatcher refuses,
 * and one refusal by cause. The version is recorded only when it is one served: a client's
 * arbitrary string would make a metric attribute of unbounded values.
 */
export async function recordModernRefusal(
  telemetry: ServerTelemetry,
  message: JsonRpcRequest,
  raw: IncomingMessage,
  response: JsonRpcFailure,
): Promise<void> {
  if (!telemetry.enabled) return;
  // The one other check at the door is the envelope's reader (-32602).
  telemetry.refused(CAUSES[response.error.code] ?? 'invalid_envelope');
  const meta = message.params?._meta;
  const version = isPlainObject(meta) ? meta[MetaKey.ProtocolVersion] : undefined;
  // A refused request's method and target are the client's words: only a method the revision
  // defines is named (else `_OTHER`, as the conventions do for unknown values), and no tool, prompt
  // or URI, so that refusals cannot make metric series without bound. `_meta` stays, for the trace.
  const described: JsonRpcRequest = {
    ...message,
    method: MODERN_METHODS.has(message.method) ? message.method : '_OTHER',
    params: isPlainObject(meta) ? { _meta: meta } : undefined,
  };
  const operation = operationOf(described, raw, isModernProtocolVersion(version) ? version : undefined);
  await telemetry.request(operation, () => response);
}
