import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpPromptRegistry, McpResourceRegistry, McpResourceTemplateRegistry } from 'mcp42';

// #region runtime
/** Items that come from data: registered once the application has started. */
@Injectable()
export class RuntimeItems implements OnApplicationBootstrap {
  constructor(
    private readonly resources: McpResourceRegistry,
    private readonly templates: McpResourceTemplateRegistry,
    private readonly prompts: McpPromptRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.resources.add(
      { uri: 'weather://about', name: 'about', mimeType: 'text/markdown' },
      () => '# Weather\nForecasts for a few cities, refreshed hourly.',
    );
    this.templates.add(
      { uriTemplate: 'weather://alerts/{region}', name: 'alerts' },
      ({ region }: { region: string }) => `No alerts for the ${region}.`,
    );
    this.prompts.add(
      {
        name: 'weather_haiku',
        description: 'A haiku about the weather of a city',
        args: [{ name: 'city', required: true }],
      },
      ({ city }: { city: string }) => `Write a haiku about the weather in ${city}.`,
    );
  }
}
// #endregion runtime
