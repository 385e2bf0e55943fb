// A Nest 11 app on Fastify compiled to CommonJS by tsc `module: node16` (in a package without
// "type": "module", so CommonJS; TypeScript then resolves mcp42 through the `require` condition of
// its exports): `import ... from 'mcp42'` becomes `require('mcp42')`. Driven by scripts/consumers.mjs:
// it prints one `MCP42_CONSUMER {...}` line once listening, and closes the app when its stdin ends;
// the process must then exit by itself.
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { McpModule } from 'mcp42';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { EchoTools } from './echo.tools.js';

@Module({
  imports: [McpModule.forRoot({ name: 'nest11-cjs-fastify', version: '1.0.0', limits: { bodyBytes: 4096 } })],
  providers: [EchoTools],
})
class AppModule {}

/** The installed Nest, read as a file (as in the ESM apps). */
const nestCore = JSON.parse(
  readFileSync(join(__dirname, '..', 'node_modules', '@nestjs', 'core', 'package.json'), 'utf8'),
) as { version: string };

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
  await app.listen(0, '127.0.0.1');
  const report = {
    port: (app.getHttpServer().address() as AddressInfo).port,
    adapter: app.getHttpAdapter().getType(),
    moduleSystem: typeof module === 'object' ? 'commonjs' : 'esm',
    mcp42: require.resolve('mcp42'),
    nest: nestCore.version,
    registry: app.get(EchoTools).registry.has('echo'),
  };
  process.stdout.write(`MCP42_CONSUMER ${JSON.stringify(report)}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => {
    void app.close().then(() => process.stdout.write('MCP42_CONSUMER {"closed":true}\n'));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
