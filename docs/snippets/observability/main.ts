// #region main
import './instrumentation.js';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule, { bodyParser: false });
// On SIGTERM the modules' shutdown hooks run: TelemetryShutdown flushes what the SDK still holds.
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
// #endregion main
console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
console.log(`Health: ${await app.getUrl()}/health`);
