import 'reflect-metadata';
import { Injectable, Module, type CanActivate, type ExecutionContext, type Provider, type Type } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { McpModule, McpTool, McpToolRegistry } from '../../src/index.js';
import type { MessageContext } from '../../src/execution/message-context.js';
import { RequestRouter } from '../../src/dispatch/request-router.js';
import { CATALOGUE_TOOLS, catalogueToolName, type CatalogueVariant, type ToolSchemaKind } from '../targets.js';
import { appEndpointUrl, HOST } from './bench-server.js';
import { ComplexArgs, SimpleArgs } from './catalogue-dtos.js';
import { type ListToolsResult } from '../../src/protocol/index.js';

/** Allows everything, and counts how often it was asked, by execution context type. */
@Injectable()
export class AllowGuard implements CanActivate {
  mcpChecks = 0;
  httpChecks = 0;

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<string>() === 'mcp') this.mcpChecks++;
    else this.httpChecks++;
    return true;
  }
}

const INPUTS: Record<ToolSchemaKind, Type<object>> = { simple: SimpleArgs, complex: ComplexArgs };

/**
 * A provider with CATALOGUE_TOOLS `@McpTool()` methods, generated: what a large hand-written catalogue
 * would declare, without 1,000 methods in the source. Provider methods (rather than `addTool`) so that
 * global guards apply to them, as they would in an application.
 */
function catalogueProvider(schema: ToolSchemaKind): Type<object> {
  @Injectable()
  class ToolCatalogue {}
  const prototype = ToolCatalogue.prototype as Record<string, unknown>;
  for (let index = 0; index < CATALOGUE_TOOLS; index++) {
    const name = catalogueToolName(index);
    Object.defineProperty(prototype, name, {
      value: (args: { text?: string }) => `${name} got ${JSON.stringify(args)}`,
      writable: true,
      configurable: true,
    });
    McpTool({
      description: `Tool ${index} of the benchmark catalogue: does one thing with what it is given`,
      input: INPUTS[schema],
    })(prototype, name, Object.getOwnPropertyDescriptor(prototype, name)!);
  }
  return ToolCatalogue;
}

export interface CatalogueServer {
  readonly url: string;
  /** The guard's counts, zero when the variant has none. */
  guardChecks(): { mcp: number; http: number };
  /** Every page of the catalogue, computed as `tools/list` computes them, without HTTP. */
  listPages(): Promise<ListToolsResult[]>;
  close(): Promise<void>;
}

/** An mcp42 app serving one catalogue, created as the sample is (Express, mcp42 reads bodies itself). */
export async function startCatalogue(variant: CatalogueVariant): Promise<CatalogueServer> {
  const guard = new AllowGuard();
  const providers: Provider[] = [catalogueProvider(variant.schema)];
  if (variant.guarded) providers.push({ provide: APP_GUARD, useValue: guard });

  @Module({
    imports: [McpModule.forRoot({ name: 'mcp42-catalogue', version: '0.1.0', limits: { pageSize: variant.pageSize } })],
    providers,
  })
  class CatalogueModule {}

  const app = await NestFactory.create(CatalogueModule, {
    bodyParser: false,
    logger: false,
    forceCloseConnections: true,
  });
  await app.listen(0, HOST);
  const registry = app.get(McpToolRegistry);
  if (registry.size !== CATALOGUE_TOOLS) throw new Error(`expected ${CATALOGUE_TOOLS} tools, got ${registry.size}`);
  const server = app.get(RequestRouter);
  // A stand-in for a request's context: the guards here read nothing from the request or the session,
  // and a listing reads of its caller only what its cursors are sealed to.
  const session = {};
  const caller = { era: 'legacy', session, cursorScope: 'bench-session' };
  const context = { transport: 'http', caller, session, httpRequest: {}, headers: {} } as unknown as MessageContext;
  return {
    url: appEndpointUrl(app),
    guardChecks: () => ({ mcp: guard.mcpChecks, http: guard.httpChecks }),
    listPages: async () => {
      const pages: ListToolsResult[] = [];
      let cursor: string | undefined;
      do {
        const page = await server.listTools(cursor, context);
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return pages;
    },
    close: () => app.close(),
  };
}
