import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { ArchiveTools, ImportTools, ReportTools } from './reports.tools.js';

// #region options
@Module({
  imports: [
    McpModule.forRoot({
      name: 'reports',
      version: '1.0.0',
      tasks: {
        defaultTtlMs: 2 * 60 * 60 * 1000, // results readable for 2 hours after the call
        pollIntervalMs: 2_000, // clients are told to poll every 2 s
        maxPerPrincipal: 10, // unfinished tasks per user
      },
    }),
  ],
  providers: [ReportTools, ArchiveTools, ImportTools],
})
export class AppModule {}
// #endregion options
