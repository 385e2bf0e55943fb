import { Injectable } from '@nestjs/common';
import { Throttle } from '@nestjs/throttler';
import { McpTool } from 'mcp42';

@Injectable()
export class SearchTools {
  // #region tool
  // Each tool has its own counter per client; this one allows 5 calls a minute.
  @Throttle({ default: { limit: 5, ttl: 60_000 } })
  @McpTool({ name: 'deep_search', description: 'An expensive search' })
  deepSearch(): string {
    return 'found';
  }
  // #endregion tool
}
