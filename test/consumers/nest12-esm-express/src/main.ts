// A Nest 12 app written as ES modules ("type": "module", tsc `module: nodenext`): it imports mcp42,
// which reaches the package's ES module wrapper. Driven by scripts/consumers.mjs: it prints one
// `MCP42_CONSUMER {...}` line once listening, and closes the app when its stdin ends; the process
// must then exit by itself.
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule } from 'mcp42';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { EchoTools } from './echo.tools.js';

@Module({
  imports: [McpModule.forRoot({ name: 'nest12-esm-express', version: '1.0.0', limits: { bodyBytes: 4096 } })],
  providers: [EchoTools],
})
class AppModule {}

/** The installed Nest (read as a file: @nestjs/core 12.0.x does not export its package.json). */
const nestCore = JSON.parse(
  readFileSync(new URL('../node_modules/@nestjs/core/package.json', import.meta.url), 'utf8'),
) as { version: string };

const app = await NestFactory.create(AppModule, { bodyParser: false, logger: ['error', 'warn'] });
await app.listen(0, '127.0.0.1');
const report = {
  port: (app.getHttpServer().address() as AddressInfo).port,
  adapter: app.getHttpAdapter().getType(),
  moduleSystem: typeof module === 'object' ? 'commonjs' : 'esm',
  mcp42: import.meta.resolve('mcp42'),
  nest: nestCore.version,
  registry: app.get(EchoTools).registry.has('echo'),
};
process.stdout.write(`MCP42_CONSUMER ${JSON.stringify(report)}\n`);
process.stdin.resume();
process.stdin.once('end', () => {
  void app.close().then(() => process.stdout.write('MCP42_CONSUMER {"closed":true}\n'));
});
