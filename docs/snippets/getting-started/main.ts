import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

async function bootstrap() {
  // mcp42 reads MCP request bodies itself: its own size limit, JSON-RPC parse errors.
  const app = await NestFactory.create(AppModule, { bodyParser: false });
  // Loopback only: the endpoint is for clients on this machine until it has authentication.
  await app.listen(process.env.PORT ?? 3000, '127.0.0.1');
  console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
}
await bootstrap();
