import { Injectable } from '@nestjs/common';
import { McpTool } from 'mcp42';

@Injectable()
export class WeatherTools {
  @McpTool({ name: 'ping_weather', description: 'Answers pong' })
  ping(): string {
    return 'pong';
  }
}
