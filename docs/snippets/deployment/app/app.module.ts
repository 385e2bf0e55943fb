import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { mcpOptions } from './mcp.options.js';
import { StatusTools } from './status.tools.js';

@Module({
  imports: [McpModule.forRoot(mcpOptions())],
  providers: [StatusTools],
})
export class AppModule {}
