import { Injectable } from '@nestjs/common';
import { McpScopes, McpTool } from 'mcp42';

@Injectable()
export class ReportTools {
  @McpScopes('reports:read')
  @McpTool({ name: 'latest_report', description: 'The latest report' })
  latest(): string {
    return 'All systems nominal';
  }
}
