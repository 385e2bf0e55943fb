import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { McpOAuthGuard, McpOAuthModule } from 'mcp42/oauth';
import { NotesTools } from './notes.tools.js';

// #region module
@Module({
  imports: [
    McpOAuthModule.forRoot({
      // This server's canonical URI: tokens must name it in `aud` (RFC 8707).
      resource: 'https://mcp.example.com/mcp',
      issuers: ['https://auth.example.com'],
    }),
    McpModule.forRoot({ name: 'notes', version: '1.0.0', guards: [McpOAuthGuard] }),
  ],
  providers: [NotesTools],
})
export class AppModule {}
// #endregion module
