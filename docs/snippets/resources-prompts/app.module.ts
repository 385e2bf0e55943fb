import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { ForecastUpdates } from './forecast.updates.js';
import { RuntimeItems } from './runtime.items.js';
import { WeatherCompletions } from './weather.completions.js';
import { WeatherPrompts } from './weather.prompts.js';
import { WeatherResources } from './weather.resources.js';
import { WeatherService } from './weather.service.js';

@Module({
  imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })],
  providers: [WeatherService, WeatherResources, WeatherPrompts, WeatherCompletions, ForecastUpdates, RuntimeItems],
})
export class AppModule {}
