import 'reflect-metadata';
import type { INestApplication, LoggerService, ModuleMetadata, Type, DynamicModule } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';

/** A Nest application listening on an ephemeral loopback port. */
export interface RunningApp {
  readonly app: INestApplication;
  /** Base URL, e.g. http://127.0.0.1:40123 */
  readonly baseUrl: string;
  /** URL of the MCP endpoint (`/mcp` unless `path` was given). */
  readonly mcpUrl: string;
  close(): Promise<void>;
}

export interface StartAppOptions {
  /** Endpoint path as given to forRoot, without leading slash (and without the global prefix). */
  readonly path?: string;
  /** `app.setGlobalPrefix()` before listening; part of `mcpUrl`. */
  readonly prefix?: string;
  /** Keep Nest's default JSON body parser (the sample app turns it off). */
  readonly bodyParser?: boolean;
  /** Nest logger, in place from the start (bootstrap logs included); off unless asked for. */
  readonly logger?: false | ('error' | 'warn' | 'log')[] | LoggerService;
  /**
   * Whether `close()` destroys the connections still open (`true` unless given); `false` is Nest's
   * default, where closing waits until every response has ended.
   */
  readonly forceCloseConnections?: boolean;
  /**
   * The HTTP platform: Express, or Fastify (its own adapter per app). Unless given, the environment
   * variable `MCP_TEST_ADAPTER` chooses, so that the whole suite can run on either.
   */
  readonly adapter?: TestAdapter;
}

export type TestAdapter = 'express' | 'fastify';

/** The platform tests run on unless they name one: `MCP_TEST_ADAPTER`, else Express. */
export const TEST_ADAPTER: TestAdapter = process.env.MCP_TEST_ADAPTER === 'fastify' ? 'fastify' : 'express';

/** Compiles `module` (or module metadata) and listens on 127.0.0.1:0. */
export async function startApp(
  module: Type<unknown> | DynamicModule | ModuleMetadata,
  options: StartAppOptions = {},
): Promise<RunningApp> {
  const metadata: ModuleMetadata =
    typeof module === 'function' || 'module' in module
      ? { imports: [module as Type<unknown> | DynamicModule] }
      : module;
  const moduleRef = await Test.createTestingModule(metadata).compile();
  const settings = {
    bodyParser: options.bodyParser ?? false,
    forceCloseConnections: options.forceCloseConnections ?? true,
    logger: options.logger ?? false,
  };
  const app =
    (options.adapter ?? TEST_ADAPTER) === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), settings)
      : moduleRef.createNestApplication(settings);
  if (options.prefix !== undefined) app.setGlobalPrefix(options.prefix);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const path = [options.prefix, options.path ?? 'mcp'].filter((part) => part !== undefined).join('/');
  return { app, baseUrl, mcpUrl: `${baseUrl}/${path}`, close: () => app.close() };
}

/** Headers every MCP POST needs. */
export const MCP_POST_HEADERS = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

/** A valid initialize request body. */
export function initializeRequest(protocolVersion = '2025-06-18', id: string | number = 0): object {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test-client', version: '1.0.0' } },
  };
}
