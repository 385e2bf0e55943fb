import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatelessCaller } from '../../execution/stateless-caller.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { MCP_PROTOCOL_VERSION_HEADER, MCP_RESOLVED_OPTIONS } from '../../mcp.constants.js';
import type { DecodedBody } from '../../protocol/json-rpc.codec.js';
import { errorResponse, invalidRequest } from '../../protocol/json-rpc.errors.js';
import { Method } from '../../protocol/methods.js';
import { DEFAULT_HEADER_PROTOCOL_VERSION } from '../../protocol/protocol-version.js';
import { RequestRouter } from '../../dispatch/request-router.js';
import { headerValue } from '../requests/http-request.js';
import { writeEmpty, writeJson } from '../responses/http-responses.js';
import { LoneRequests } from './lone-requests.js';
import { servedTraced } from './traced-message.js';
import { legacyVersionHeaderOk, rejectVersionHeader } from './session-headers.js';

/** A 2025 JSON-RPC error travels in a 200, as every 2025 response does. */
const ALWAYS_OK = (): number => 200;

/**
 * Serves one 2025 POST without a session (`sessions.enabled: false`), as the official SDK v2 does by
 * default: `initialize` is answered and forgotten (no `Mcp-Session-Id`), any other request is served
 * on its own, its version read from `MCP-Protocol-Version`, nothing known of the client's
 * capabilities; notifications and responses are taken and dropped (nothing is running for them to
 * act on). Batches are refused: a 2025-03-26 client that batches should keep its sessions (the
 * session's responder is what answers several requests in one response here).
 */
@Injectable()
export class SessionlessPost {
  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly server: RequestRouter,
    private readonly lone: LoneRequests,
  ) {}

  async handle(body: DecodedBody, request: unknown, raw: IncomingMessage, res: ServerResponse): Promise<void> {
    if (body.kind === 'error') return writeJson(res, 400, body.error);
    const dispatcher = this.server.sessionless;
    if (body.kind === 'single' && body.entry.kind === 'request' && body.entry.message.method === Method.Initialize) {
      const { message } = body.entry;
      const outcome = dispatcher.initialize(message);
      const version = outcome.handshake?.protocolVersion;
      return writeJson(
        res,
        200,
        await servedTraced(this.options.telemetry, message, raw, version, undefined, () => outcome.response),
      );
    }
    // As with sessions: `initialize` negotiates in its body, anything else is judged by its header first.
    if (!legacyVersionHeaderOk(raw)) return rejectVersionHeader(res);
    if (body.kind === 'batch') {
      return writeJson(
        res,
        400,
        errorResponse(
          null,
          invalidRequest('batches are not served here: this server serves 2025 clients without sessions'),
        ),
      );
    }
    const { entry } = body;
    if (entry.kind === 'invalid') return writeJson(res, 400, entry.error);
    if (entry.kind !== 'request') return writeEmpty(res, 202);
    const { message } = entry;
    const version = headerValue(raw.headers, MCP_PROTOCOL_VERSION_HEADER) ?? DEFAULT_HEADER_PROTOCOL_VERSION;
    const caller = new StatelessCaller(
      { protocolVersion: version, clientCapabilities: {}, logLevel: this.options.sessions.defaultLogLevel },
      this.options.auth.principalOf(request),
      'legacy',
    );
    await this.lone.serve(caller, message, dispatcher, request, raw, res, ALWAYS_OK);
  }
}
