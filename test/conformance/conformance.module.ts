import { Module } from '@nestjs/common';
import { McpModule } from '../../src/index.js';
import { ConformanceTools } from './conformance.tools.js';
import { ConformanceInputRequiredTools } from './input-required.tools.js';
import { ConformanceInteractionTools } from './interaction.tools.js';
import { ConformancePrompts } from './prompts.fixture.js';
import { ConformanceResources } from './resources.fixture.js';
import { ConformanceStatelessTools } from './stateless.tools.js';
import { ConformanceTaskCompositionTools, ConformanceTaskTools } from './tasks.tools.js';

/**
 * The fixture the official MCP conformance suite runs against: mcp42 with its defaults (both eras
 * on one endpoint, loopback Origin/Host checks, sessions for 2025 clients, endpoint `/mcp`) and the
 * scenario tools, resources and prompts. `ConformanceTools` comes first: the header scenarios call
 * the first tool listed with no arguments.
 */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'mcp42-conformance-fixture',
      version: '0.1.0',
      title: 'mcp42 conformance fixture',
    }),
  ],
  providers: [
    ConformanceTools,
    ConformanceInteractionTools,
    ConformanceStatelessTools,
    ConformanceInputRequiredTools,
    ConformanceResources,
    ConformancePrompts,
    ConformanceTaskTools,
    ConformanceTaskCompositionTools,
  ],
})
export class ConformanceModule {}
