import { Injectable } from '@nestjs/common';
import { McpTool } from 'mcp42';
import { hostname } from 'node:os';

@Injectable()
export class StatusTools {
  @McpTool({ name: 'instance_info', description: 'Which instance answered' })
  instanceInfo(): string {
    return `served by ${hostname()} (pid ${process.pid})`;
  }
}
