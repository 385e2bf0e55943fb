import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { McpModule } from '../../../src/index.js';
import { StdioFixtureModule } from './stdio-fixture.module.js';

/** The stdio fixture server: `node dist/test/stdio/app/main.js` (built by `npm run build`). */
async function bootstrap(): Promise<void> {
  const bodyBytes = Number(process.env.MCP_BODY_BYTES ?? 4096);
  const app = await NestFactory.createApplicationContext(StdioFixtureModule.register(bodyBytes), { bufferLogs: true });
  await McpModule.serveStdio(app);
}

void bootstrap();
