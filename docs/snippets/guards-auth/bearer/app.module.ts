import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { ReportTools } from './report.tools.js';

// #region module
@Module({
  imports: [
    McpModule.forRoot({
      name: 'reports',
      version: '1.0.0',
      // An instance needs nothing from Nest's injector. The guard refuses to start without a token.
      guards: [
        new BearerAuthGuard([{ token: process.env.MCP_TOKEN ?? '', sub: 'reporting-agent', scopes: ['reports:read'] }]),
      ],
    }),
  ],
  providers: [ReportTools],
})
export class AppModule {}
// #endregion module
