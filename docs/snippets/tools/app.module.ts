import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { StationTools } from './station.registry.js';
import { FeatureFlags } from './trip.pipeline.js';
import { TripTools } from './trip.tools.js';
import { WeatherService } from './weather.service.js';
import { WeatherTools } from './weather.tools.js';

@Module({
  imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })],
  providers: [WeatherService, WeatherTools, TripTools, FeatureFlags, StationTools],
})
export class AppModule {}
