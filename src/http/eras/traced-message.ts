import type { IncomingMessage } from 'node:http';
import type { ServerTelemetry, TelemetryOperation } from '../../interfaces/mcp-telemetry.interface.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/json-rpc.types.js';

/** One incoming message as telemetry records it, with what the HTTP request says of the network. */
export function operationOf(
  message: JsonRpcRequest | JsonRpcNotification,
  raw: IncomingMessage,
  protocolVersion: string | undefined,
  sessionId?: string,
): TelemetryOperation {
  const { socket } = raw;
  // One literal of one shape for every message (absent fields undefined): describing a message is on
  // the path of every request of a server with telemetry.
  return {
    method: message.method,
    id: 'id' in message ? message.id : undefined,
    params: message.params,
    protocolVersion,
    sessionId,
    carrier: raw.headers,
    network: {
      transport: 'tcp',
      protocolName: 'http',
      protocolVersion: raw.httpVersion,
      clientAddress: socket.remoteAddress,
      clientPort: socket.remotePort,
    },
  };
}

/**
 * Serves one request inside its telemetry operation, or plainly when the server has no telemetry
 * (then nothing is described or allocated for it).
 */
export function servedTraced<R extends JsonRpcResponse | undefined>(
  telemetry: ServerTelemetry,
  message: JsonRpcRequest,
  raw: IncomingMessage,
  protocolVersion: string | undefined,
  sessionId: string | undefined,
  serve: () => Promise<R> | R,
): Promise<R> | R {
  if (!telemetry.enabled) return serve();
  return telemetry.request(operationOf(message, raw, protocolVersion, sessionId), serve);
}
