import type { IncomingHttpHeaders } from 'node:http';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { ClientCapabilities, Implementation, Meta } from '../protocol/mcp.types.js';
import type { McpCallContext } from '../server/mcp-call-context.js';

/** The {@link McpContext} of one tool call. Reads through to the session and request lazily. */
export class ToolCallContext implements McpContext {
  constructor(
    private readonly call: McpCallContext,
    readonly requestId: RequestId,
    readonly toolName: string,
    readonly meta: Meta | undefined,
    readonly signal: AbortSignal,
  ) {}

  get sessionId(): string {
    return this.call.session.id;
  }

  get protocolVersion(): string {
    return this.call.session.protocolVersion;
  }

  get clientInfo(): Implementation {
    return this.call.session.clientInfo;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.call.session.clientCapabilities;
  }

  get request(): unknown {
    return this.call.httpRequest;
  }

  get headers(): IncomingHttpHeaders {
    return this.call.headers;
  }

  get user(): unknown {
    return (this.call.httpRequest as { user?: unknown } | undefined)?.user;
  }
}
