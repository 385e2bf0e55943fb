import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

// #region main
// Express's JSON parser is on (the default), so POST /api/alerts gets its body over HTTP and from MCP.
const app = await NestFactory.create(AppModule);
app.setGlobalPrefix('v1'); // route-backed tools follow the prefix (and versioning) as the router does
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
// #endregion main
console.log(`MCP endpoint: ${await app.getUrl()}/v1/mcp`);
