import { Injectable } from '@nestjs/common';
import { McpResource, McpTool } from 'mcp42';

// #region items
@Injectable()
export class WeatherTools {
  @McpTool({ name: 'get_forecast', description: 'Forecast for a city', annotations: { readOnlyHint: true } })
  forecast(): string {
    return 'Sunny, 24 °C';
  }

  @McpTool({ name: 'clear_cache', description: 'Clears every cached forecast' })
  clearCache(): string {
    return 'Cleared';
  }

  @McpResource({ uri: 'weather://cities', name: 'cities', description: 'The known cities' })
  cities(): string {
    return 'Lisbon, Oslo, Lima';
  }
}
// #endregion items
