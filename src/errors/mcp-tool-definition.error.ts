/** A tool declaration that cannot be served (bad name, duplicate, missing description): fails bootstrap. */
export class McpToolDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpToolDefinitionError';
  }
}
