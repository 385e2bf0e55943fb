import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { EraTools } from './era.tools.js';
import { ProjectTools } from './project.tools.js';
import { ProjectsService } from './projects.service.js';

// #region module
@Module({
  imports: [
    McpModule.forRoot({
      name: 'projects',
      version: '1.0.0',
      // 'dual' is the default: 2025 sessions and stateless 2026-07-28 requests on one endpoint.
      eras: 'dual',
      // Seals requestState and list cursors. Without it a random key of this process is used: fine
      // for one process, not for several (see below).
      state: { secret: process.env.MCP_STATE_SECRET },
      // Caching hints of 2026-07-28 results: the tool list may be cached 5 minutes by this client.
      cache: { tools: { ttlMs: 300_000, scope: 'private' } },
    }),
  ],
  providers: [EraTools, ProjectTools, ProjectsService],
})
export class AppModule {}
// #endregion module
