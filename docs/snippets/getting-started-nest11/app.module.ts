import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { WeatherTools } from './weather.tools';

@Module({
  imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })],
  providers: [WeatherTools],
})
export class AppModule {}
