import { McpDefinitionError } from './mcp-definition.error.js';

/** A tool declaration that cannot be served (bad name, duplicate, missing description): fails bootstrap. */
export class McpToolDefinitionError extends McpDefinitionError {
  constructor(message: string) {
    super(message);
    this.name = 'McpToolDefinitionError';
  }
}
