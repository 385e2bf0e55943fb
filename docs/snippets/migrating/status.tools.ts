import { Injectable } from '@nestjs/common';
import { McpTool } from 'mcp42';

@Injectable()
export class StatusTools {
  @McpTool({ name: 'status', description: 'Whether the service is up' })
  status(): string {
    return 'All systems normal';
  }
}
