import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { EchoTools } from './echo.tools.js';

// #region module
@Module({
  imports: [
    McpModule.forRoot({
      name: 'echo',
      version: '1.0.0',
      // Larger pages: fewer tools/list round trips for a client of a large catalogue.
      limits: { pageSize: 200 },
      // The list of tools is the same for every caller here (no guards on tools): 2026-07-28
      // clients, and shared caches, may keep it for 10 minutes.
      cache: { tools: { ttlMs: 600_000, scope: 'public' } },
    }),
  ],
  providers: [EchoTools],
})
export class AppModule {}
// #endregion module
