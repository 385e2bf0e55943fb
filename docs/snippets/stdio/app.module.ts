import { Module, type DynamicModule } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { NotesTools } from './notes.tools.js';

// #region module
/** Whoever spawned the process: the local user who configured the client, holding every scope. */
const LOCAL_USER = { sub: 'local', scope: 'notes:read notes:write' };

@Module({})
export class AppModule {
  /** One app, two ways to serve it: an HTTP endpoint, or stdio for a client that spawns it. */
  static register(options: { stdio: boolean }): DynamicModule {
    const mcp = options.stdio
      ? McpModule.forRoot({ name: 'notes', version: '1.0.0', transport: 'stdio', stdio: { user: LOCAL_USER } })
      : McpModule.forRoot({ name: 'notes', version: '1.0.0' });
    return { module: AppModule, imports: [mcp], providers: [NotesTools] };
  }
}
// #endregion module
