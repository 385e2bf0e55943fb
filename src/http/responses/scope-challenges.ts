import { Inject, Injectable, Optional } from '@nestjs/common';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS, MCP_RESOURCE_METADATA_URL } from '../../mcp.constants.js';
import { scopeShortfallOf } from '../../protocol/insufficient-scope.js';
import type { JsonRpcResponse } from '../../protocol/json-rpc.types.js';
import { bearerChallenge } from './bearer-challenge.js';

/** How one JSON answer goes out: its status, and headers besides the usual ones. */
export interface JsonAnswer {
  readonly status: number;
  readonly headers?: OutgoingHttpHeaders;
}

/**
 * Turns a call refused for missing scopes (`auth.scopeDenial: 'challenge'`) into the HTTP answer the MCP
 * authorization specification asks for: 403, with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"` and, when the application serves Protected Resource Metadata, its `resource_metadata`.
 */
@Injectable()
export class ScopeChallenges {
  private readonly challenging: boolean;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: Pick<ResolvedMcpOptions, 'auth'>,
    @Optional() @Inject(MCP_RESOURCE_METADATA_URL) private readonly resourceMetadata?: string,
  ) {
    this.challenging = options.auth.scopeDenial === 'challenge';
  }

  /**
   * The 403 and its challenge for a refusal; `undefined` for any other response. Only with
   * `auth.scopeDenial: 'challenge'`: then a resource or prompt handler may throw such a refusal too (its
   * scopes decided by the request), while with `'hide'` no response ever becomes a 403.
   */
  answerOf(response: JsonRpcResponse | undefined): JsonAnswer | undefined {
    if (!this.challenging) return undefined;
    const shortfall = scopeShortfallOf(response);
    if (!shortfall) return undefined;
    const challenge = bearerChallenge({
      error: 'insufficient_scope',
      errorDescription: shortfall.description,
      scopes: shortfall.scopes,
      ...(this.resourceMetadata === undefined ? {} : { resourceMetadata: this.resourceMetadata }),
    });
    return { status: 403, headers: { 'www-authenticate': challenge } };
  }
}
