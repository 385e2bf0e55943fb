import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { McpModule } from 'mcp42';
import { McpThrottlerGuard } from './mcp-throttler.guard.js';
import { SearchTools } from './search.tools.js';

// #region module
@Module({
  imports: [
    // 100 requests a minute per client on the endpoint (initialize, calls, pings, GET streams…).
    ThrottlerModule.forRoot({ throttlers: [{ ttl: 60_000, limit: 100 }] }),
    McpModule.forRoot({ name: 'search', version: '1.0.0' }),
  ],
  providers: [SearchTools, { provide: APP_GUARD, useClass: McpThrottlerGuard }],
})
export class AppModule {}
// #endregion module
