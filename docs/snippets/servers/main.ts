import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule, { bodyParser: false });
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
const url = await app.getUrl();
console.log(`Public MCP endpoint: ${url}/public/mcp`);
console.log(`Main MCP endpoint: ${url}/mcp (needs x-admin-key)`);
