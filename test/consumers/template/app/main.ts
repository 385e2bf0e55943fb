// A consumer app of mcp42, the same in all four: its variant (variants.mjs) picks the Nest version
// (the app's package.json pins it), the module system (./module-system.ts) and the platform
// (./platform.ts). Driven by scripts/consumers.mjs: it prints one `MCP42_CONSUMER {...}` line once
// listening, and closes the app when its stdin ends; the process must then exit by itself.
import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import type { AddressInfo } from 'node:net';
import { APP_NAME } from './app-name.js';
import { EchoTools } from './echo.tools.js';
import { installedNestVersion, mcp42Entry } from './module-system.js';
import { createApp } from './platform.js';

@Module({
  imports: [McpModule.forRoot({ name: APP_NAME, version: '1.0.0', limits: { bodyBytes: 4096 } })],
  providers: [EchoTools],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await createApp(AppModule);
  await app.listen(0, '127.0.0.1');
  const report = {
    port: (app.getHttpServer().address() as AddressInfo).port,
    adapter: app.getHttpAdapter().getType(),
    // What the running code is, not what the variant says it should be.
    moduleSystem: typeof module === 'object' ? 'commonjs' : 'esm',
    mcp42: mcp42Entry(),
    nest: installedNestVersion(),
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
