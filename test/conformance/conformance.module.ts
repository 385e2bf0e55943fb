import { Module } from '@nestjs/common';
import { McpModule } from '../../src/index.js';
import { ConformanceTools } from './conformance.tools.js';
import { ConformanceInteractionTools } from './interaction.tools.js';
import { ConformancePrompts } from './prompts.fixture.js';
import { ConformanceResources } from './resources.fixture.js';

/**
 * The fixture the official MCP conformance suite runs against: mcp42 with its defaults
 * (loopback Origin/Host checks, sessions, endpoint `/mcp`) and the scenario tools, resources and prompts.
 */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'mcp42-conformance-fixture',
      version: '0.1.0',
      title: 'mcp42 conformance fixture',
    }),
  ],
  providers: [ConformanceTools, ConformanceInteractionTools, ConformanceResources, ConformancePrompts],
})
export class ConformanceModule {}
