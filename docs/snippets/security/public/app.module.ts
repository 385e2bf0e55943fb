import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { McpModule } from 'mcp42';
import { McpOAuthGuard, McpOAuthModule } from 'mcp42/oauth';
import { McpThrottlerGuard } from '../../guards-auth/throttler/mcp-throttler.guard.js';
import { ReportTools } from './report.tools.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

// #region module
@Module({
  imports: [
    // Per client, on the endpoint and on each tool.
    ThrottlerModule.forRoot({ throttlers: [{ ttl: 60_000, limit: 300 }] }),
    // Authentication: tokens of your authorization server, for this server's canonical URI only.
    McpOAuthModule.forRoot({
      resource: 'https://mcp.example.com/mcp',
      issuers: ['https://auth.example.com'],
    }),
    McpModule.forRoot({
      name: 'reports',
      version: '1.0.0',
      guards: [McpOAuthGuard],
      http: {
        // The name clients reach you by, as the Host header arrives behind your proxy.
        allowedHosts: ['mcp.example.com'],
        // Browser clients only: the pages allowed to call the endpoint, and CORS for them.
        allowedOrigins: ['https://app.example.com'],
        cors: true,
      },
      // The same secret, at least 32 random bytes, on every instance; from your secret store.
      state: { secret: required('MCP_STATE_SECRET') },
    }),
  ],
  providers: [ReportTools, { provide: APP_GUARD, useClass: McpThrottlerGuard }],
})
export class AppModule {}
// #endregion module
