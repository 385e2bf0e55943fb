import { Logger } from '@nestjs/common';
import type { McpItemKind } from './invocation.js';

/** The logger of each kind of item, named as users filter logs: `McpTools`, `McpResources`... */
export function kindLoggers(): Readonly<Record<McpItemKind, Logger>> {
  const resources = new Logger('McpResources');
  return Object.freeze({
    tool: new Logger('McpTools'),
    resource: resources,
    resourceTemplate: resources,
    prompt: new Logger('McpPrompts'),
    completion: new Logger('McpCompletions'),
  });
}
