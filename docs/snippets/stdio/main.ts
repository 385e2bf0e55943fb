// #region main
import { NestFactory } from '@nestjs/core';
import { McpModule } from 'mcp42';
import { AppModule } from './app.module.js';

if (process.argv.includes('--stdio')) {
  // An application context: no HTTP server. Nest's bootstrap logs wait in its buffer until stdout is
  // reserved for JSON-RPC, then go to stderr, with every later log and console.log.
  const app = await NestFactory.createApplicationContext(AppModule.register({ stdio: true }), { bufferLogs: true });
  // Serves until the client closes stdin (or sends SIGTERM), then closes the app: the process exits with 0.
  await McpModule.serveStdio(app);
} else {
  const app = await NestFactory.create(AppModule.register({ stdio: false }), { bodyParser: false });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
}
// #endregion main
