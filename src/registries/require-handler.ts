import { McpDefinitionError } from '../errors/mcp-definition.error.js';

/** @throws McpDefinitionError unless `handler` is a function: caught where the item is added, not on its first call. */
export function requireHandler(handler: unknown, what: string): void {
  if (typeof handler !== 'function') throw new McpDefinitionError(`${what}: handler must be a function`);
}
