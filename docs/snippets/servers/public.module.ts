import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { McpModule, McpToolRegistry } from 'mcp42';

// #region public-registry
/** A provider of the public server's module: the registries it injects are that server's. */
@Injectable()
export class PublicStatus implements OnModuleInit {
  constructor(private readonly tools: McpToolRegistry) {}

  onModuleInit(): void {
    this.tools.add({ name: 'status', description: 'Whether the service is up' }, () => 'up');
  }
}
// #endregion public-registry

// #region public
@Module({
  imports: [
    McpModule.forRoot({
      name: 'weather-public',
      version: '1.0.0',
      path: 'public/mcp',
      // A server beside another names what it serves of the decorated items.
      items: { tools: ['get_forecast'], resources: ['weather://cities'] },
    }),
  ],
  providers: [PublicStatus],
})
export class PublicModule {}
// #endregion public
