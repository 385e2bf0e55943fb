import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { FilesTools } from './files.tools.js';

// #region module
@Module({
  imports: [
    McpModule.forRoot({
      name: 'workspace',
      version: '1.0.0',
      // http.allowedHosts and http.allowedOrigins keep their loopback defaults: a page on another
      // site cannot drive this server through the user's browser (DNS rebinding).
      http: { bodyTimeoutMs: 10_000 },
      limits: {
        bodyBytes: 256 * 1024, // this server's tools take small arguments
        sessions: 50, // one user's editors and agents
        outboxMessages: 200,
      },
      sessions: { idleTimeoutMs: 10 * 60_000 },
    }),
  ],
  providers: [FilesTools],
})
export class AppModule {}
// #endregion module
