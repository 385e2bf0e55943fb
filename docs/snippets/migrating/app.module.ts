import type { IncomingMessage } from 'node:http';
import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { StatusTools } from './status.tools.js';

/** Who a request acts for: the `sub` your authentication guard put on `request.user`. */
const subjectOf = (request: unknown): string | undefined =>
  (request as IncomingMessage & { user?: { sub?: string } }).user?.sub;

// #region before
// mcp42 0.x: every option at the top level. 1.0 refuses these names at bootstrap.
//
// McpModule.forRoot({
//   name: 'status',
//   version: '1.0.0',
//   allowedHosts: ['status.example.com', 'localhost', '127.0.0.1'],
//   cors: true,
//   maxBodyBytes: 1_048_576,
//   maxSessions: 5_000,
//   sessionIdleTimeoutMs: 600_000,
//   sessionOwner: subjectOf,
//   stateSecret: process.env.MCP_STATE_SECRET,
// });
// #endregion before

@Module({
  // #region after
  imports: [
    McpModule.forRoot({
      name: 'status',
      version: '1.0.0',
      http: { allowedHosts: ['status.example.com', 'localhost', '127.0.0.1'], cors: true },
      limits: { bodyBytes: 1_048_576, sessions: 5_000 },
      sessions: { idleTimeoutMs: 600_000 },
      auth: { principalOf: subjectOf },
      state: { secret: process.env.MCP_STATE_SECRET },
    }),
  ],
  // #endregion after
  providers: [StatusTools],
})
export class AppModule {}
