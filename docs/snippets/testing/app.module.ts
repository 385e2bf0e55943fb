import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { AuthModule, BearerTokenGuard } from './bearer-token.guard.js';
import { CacheTools } from './cache.tools.js';
import { WeatherService } from './weather.service.js';
import { WeatherTools } from './weather.tools.js';

@Module({
  imports: [AuthModule, McpModule.forRoot({ name: 'weather', version: '1.0.0', guards: [BearerTokenGuard] })],
  providers: [WeatherService, WeatherTools, CacheTools],
})
export class AppModule {}
