import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { DevUserGuard } from './dev-user.guard.js';
import { NotesTools } from './notes.tools.js';

@Module({
  imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0', guards: [DevUserGuard] })],
  providers: [NotesTools],
})
export class AppModule {}
