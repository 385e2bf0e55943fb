import 'reflect-metadata';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { createServer, type AddressInfo } from 'node:net';
import { McpModule, type McpModuleOptions } from '../../src/index.js';
import { McpOAuthGuard, McpOAuthModule, type McpOAuthOptions } from '../../src/oauth/index.js';
import { OAuthProbeTools } from '../fixtures/oauth-tools.js';
import { TEST_ADAPTER, type RunningApp } from './start-app.js';

/** A running OAuth-protected app and the canonical resource URI its tokens must name. */
export interface RunningOAuthApp extends RunningApp {
  readonly resource: string;
}

/** A free loopback port: the resource URI names the port, and it must be known before the app starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An app with {@link OAuthProbeTools} whose endpoint (`/mcp`) is guarded by `McpOAuthGuard`, with
 * `resource` = its own URL, on the platform of the test project; `mcp` adds McpModule options.
 */
export async function startOAuthApp(
  options: Omit<McpOAuthOptions, 'resource'>,
  mcp: Partial<McpModuleOptions> = {},
): Promise<RunningOAuthApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const resource = `${baseUrl}/mcp`;
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpOAuthModule.forRoot({ resource, ...options }),
      McpModule.forRoot({ name: 'oauth-e2e', version: '1.0.0', guards: [McpOAuthGuard], ...mcp }),
    ],
    providers: [OAuthProbeTools],
  }).compile();
  const settings = { bodyParser: false, forceCloseConnections: true, logger: false as const };
  const app =
    TEST_ADAPTER === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), settings)
      : moduleRef.createNestApplication(settings);
  await app.listen(port, '127.0.0.1');
  return { app, baseUrl, mcpUrl: resource, resource, close: () => app.close() };
}
