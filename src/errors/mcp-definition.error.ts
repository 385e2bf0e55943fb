/**
 * A declaration that cannot be served (a tool, resource, template, prompt or completer with a bad
 * name, a duplicate key, a missing description, an invalid URI...): fails bootstrap, or the
 * runtime `add...()` call.
 * @category Errors
 */
export class McpDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpDefinitionError';
  }
}
