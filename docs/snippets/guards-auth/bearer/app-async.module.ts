import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { AuthModule } from './auth.module.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { ReportTools } from './report.tools.js';

// #region module
@Module({
  imports: [
    McpModule.forRootAsync({
      // The guard class is instantiated in McpModule's scope: its dependencies (BEARER_GRANTS) come
      // from these imports, or from a global module.
      imports: [AuthModule],
      useFactory: () => ({ name: 'reports', version: process.env.APP_VERSION ?? '1.0.0' }),
      // path, guards and isGlobal are plain values beside the factory: they shape the module.
      guards: [BearerAuthGuard],
    }),
  ],
  providers: [ReportTools],
})
export class AppModule {}
// #endregion module
