import { Injectable } from '@nestjs/common';
import { McpTool } from 'mcp42';

@Injectable()
export class FilesTools {
  @McpTool({ name: 'workspace_status', description: 'Says whether the local workspace is clean' })
  status(): string {
    return 'workspace clean';
  }
}
