import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

const MESSAGE =
  'MCP request bodies are parsed by the application body parser before mcp42 sees them: its size limit ' +
  'and error responses apply instead of maxBodyBytes and JSON-RPC parse errors. Create the application ' +
  'with { bodyParser: false } (see the README, "Request bodies").';

/**
 * Tells the developer, once, that a host body parser reads MCP bodies first. Checked at bootstrap
 * where the adapter can say so (Express), else on the first request that arrives pre-parsed.
 */
@Injectable()
export class BodyParserNotice implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpTransport');
  private warned = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    // `isMiddlewareApplied` is the Express adapter's own check for the parser Nest installs by default.
    const adapter = this.adapterHost.httpAdapter as { isMiddlewareApplied?: (name: string) => boolean } | undefined;
    if (adapter?.isMiddlewareApplied?.('jsonParser')) this.warnOnce();
  }

  warnOnce(): void {
    if (this.warned) return;
    this.warned = true;
    this.logger.warn(MESSAGE);
  }
}
