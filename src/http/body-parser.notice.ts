import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

const EXPRESS_MESSAGE =
  'MCP request bodies are parsed by the application body parser before mcp42 sees them: its size limit ' +
  'and error responses apply instead of limits.bodyBytes and JSON-RPC parse errors. Create the application ' +
  'with { bodyParser: false } (see https://mcp42.github.io/mcp42/guide/deployment#request-bodies).';
// On Fastify mcp42 keeps the parsers away from its routes itself: a parsed body means something else did.
const FASTIFY_MESSAGE =
  'MCP request bodies reach mcp42 parsed on Fastify: a hook or plugin of the application read them first, so ' +
  'its limits and errors apply instead of limits.bodyBytes and JSON-RPC parse errors (see https://mcp42.github.io/mcp42/guide/deployment#request-bodies).';

/**
 * Tells the developer, once, that a host body parser reads MCP bodies first, with the fix for their
 * adapter. Checked at bootstrap where the adapter can say so (Express's default JSON parser), else on
 * the first request that arrives pre-parsed (on Fastify only something of the application's own can
 * do that: mcp42 keeps Fastify's parsers away from its routes).
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
    const type = (this.adapterHost.httpAdapter as { getType?: () => string } | undefined)?.getType?.();
    this.logger.warn(type === 'fastify' ? FASTIFY_MESSAGE : EXPRESS_MESSAGE);
  }
}
