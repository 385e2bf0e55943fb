import { Inject, Injectable, Optional, type Type } from '@nestjs/common';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_ENDPOINT_CONTROLLER, MCP_ENDPOINT_METADATA, MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';

/** `mcp`, `/mcp` and `mcp/` are one route; so are `MCP` and `mcp` on Express, which routes regardless of case. */
const normalised = (path: string): string => path.replace(/^\/+|\/+$/g, '').toLowerCase();

/**
 * One MCP server of the application, as the others see it: each `McpModule.forRoot()` provides one,
 * and `ServersCheck` reads them all (through Nest's discovery, not a registry of process-wide state).
 */
@Injectable()
export class ServerIdentity {
  /** `serverInfo.name`: unique in the application. */
  readonly name: string;
  /** The endpoint's path, normalised (`mcp`). */
  readonly path: string | undefined;
  /** Whether it serves every decorated item (no `items` option). */
  readonly servesEverything: boolean;
  /** The namespace of its shared state (Redis: the key prefix), when it has one. */
  readonly stateNamespace: string | undefined;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    @Optional() @Inject(MCP_ENDPOINT_CONTROLLER) endpoint: Type<unknown> | undefined,
  ) {
    this.name = options.name;
    const path: unknown = endpoint ? Reflect.getMetadata(MCP_ENDPOINT_METADATA, endpoint) : undefined;
    this.path = typeof path === 'string' ? normalised(path) : undefined;
    this.servesEverything = options.items === undefined;
    this.stateNamespace = options.state.shared?.port.namespace;
  }

  /** How messages name it: `'weather' (/mcp)`. */
  toString(): string {
    return `'${this.name}'${this.path === undefined ? '' : ` (/${this.path})`}`;
  }
}
