import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { Announcer } from './announcer.js';
import { AssistantTools } from './assistant.tools.js';
import { CacheTools, ForecastCache, SafeCacheTools } from './cache.tools.js';
import { RefreshTools } from './refresh.tools.js';
import { AuditedTools, SessionTools } from './session.tools.js';

@Module({
  imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })],
  providers: [
    RefreshTools,
    ForecastCache,
    CacheTools,
    SafeCacheTools,
    AssistantTools,
    SessionTools,
    AuditedTools,
    Announcer,
  ],
})
export class AppModule {}
