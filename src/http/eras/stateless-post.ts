import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatelessCaller } from '../../execution/stateless-caller.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.constants.js';
import { errorResponse, ErrorCode, JsonRpcError } from '../../protocol/json-rpc.errors.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/json-rpc.types.js';
import { Method } from '../../protocol/methods.js';
import { admitModernRequest, ModernRefusal, modernErrorStatus } from '../../protocol/modern-era.js';
import { readHeader } from '../../protocol/header-value.js';
import { MODERN_PROTOCOL_VERSIONS } from '../../protocol/protocol-version.js';
import { ListenStreams } from '../../dispatch/listen-streams.js';
import { RequestRouter } from '../../dispatch/request-router.js';
import { writeEmpty, writeJson } from '../responses/http-responses.js';
import { LoneRequests } from './lone-requests.js';
import { recordModernRefusal } from './modern-refusal-telemetry.js';

/**
 * Serves one stateless (2026-07-28) POST: the request is checked in the order the revision pins
 * (envelope, headers, version, method, mirrored names), served by the modern dispatcher with what
 * its `_meta` says of the client and nothing else, and answered as JSON or, when it sends messages
 * first, as an SSE stream. The client closing the response is the request's cancellation.
 */
@Injectable()
export class StatelessPost {
  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly server: RequestRouter,
    private readonly listens: ListenStreams,
    private readonly lone: LoneRequests,
  ) {}

  async handle(
    message: JsonRpcRequest | JsonRpcNotification,
    request: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const header = (name: string): string | undefined => readHeader(raw.headers, name);
    // Accepted and ignored: over HTTP the revision acts on no notification (a cancellation is a closed stream).
    if (!('id' in message)) return writeEmpty(res, 202);
    let envelope;
    try {
      envelope = admitModernRequest(message, header, {
        // Only what a request can name in `_meta`: a 2025 version there would be refused again.
        supportedVersions: MODERN_PROTOCOL_VERSIONS,
        capabilities: this.server.servedCapabilities,
      });
    } catch (error) {
      if (!(error instanceof ModernRefusal)) throw error;
      const refused = errorResponse(message.id, error.error);
      // Answered first: a failure of telemetry must not turn the refusal into a 500.
      writeJson(res, error.status, refused);
      await recordModernRefusal(this.options.telemetry, message, raw, refused).catch(() => undefined);
      return;
    }
    const principal = this.options.auth.principalOf(request);
    if (message.method === Method.SubscriptionsListen && !this.listens.hasRoom(principal)) {
      this.options.telemetry.refused('listen_streams_full');
      return writeJson(
        res,
        429,
        errorResponse(
          message.id,
          new JsonRpcError(ErrorCode.ServerError, 'Too many open listen streams; close one first'),
        ),
        { 'retry-after': '10' },
      );
    }
    return this.lone.serve(
      new StatelessCaller(envelope, principal),
      message,
      this.server.modern,
      request,
      raw,
      res,
      statusOf,
    );
  }
}

function statusOf(response: JsonRpcResponse | undefined): number {
  return response !== undefined && 'error' in response ? modernErrorStatus(response.error.code) : 200;
}
