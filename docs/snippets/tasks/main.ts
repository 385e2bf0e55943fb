import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule, { bodyParser: false });
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
