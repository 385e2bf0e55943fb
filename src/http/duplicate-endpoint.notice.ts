import { Inject, Injectable, Logger, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { MCP_ENDPOINT_CONTROLLER, MCP_ENDPOINT_METADATA } from '../mcp.constants.js';

/** `mcp`, `/mcp` and `mcp/` are one route. */
const normalised = (path: string): string => path.replace(/^\/+|\/+$/g, '');

/**
 * Tells the developer when two `McpModule.forRoot()` of one application serve the same path:
 * the router gives every request to the first, so the second module's items are unreachable,
 * without a word. Said by the module that loses, once.
 */
@Injectable()
export class DuplicateEndpointNotice implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpTransport');

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(MCP_ENDPOINT_CONTROLLER) private readonly endpoint: Type<unknown> | null,
  ) {}

  onApplicationBootstrap(): void {
    // A stdio server (no endpoint) serves no path.
    if (this.endpoint === null) return;
    const path = pathOf(this.endpoint);
    if (path === undefined) return;
    const first = this.discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype as Type<unknown> | undefined)
      .find((controller) => controller !== undefined && pathOf(controller) === path);
    if (first === undefined || first === this.endpoint) return;
    this.logger.warn(
      `McpModule.forRoot() serves /${path} twice in this application: the first module answers every request ` +
        'there, and the items of the other are never reached. Give one of them another `path`, or import ' +
        'McpModule once (with isGlobal: true its registries reach every module).',
    );
  }
}

function pathOf(controller: Type<unknown>): string | undefined {
  const path: unknown = Reflect.getMetadata(MCP_ENDPOINT_METADATA, controller);
  return typeof path === 'string' ? normalised(path) : undefined;
}
