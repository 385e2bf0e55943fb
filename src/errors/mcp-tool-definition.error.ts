import { McpDefinitionError } from './mcp-definition.error.js';

/**
 * The name tool definition errors had in 0.1 and 0.2: the very class {@link McpDefinitionError}
 * now, so `instanceof McpToolDefinitionError` still matches what a bad tool throws.
 * @deprecated Catch {@link McpDefinitionError}: one error class for bad definitions of any kind.
 * @category Errors
 */
export const McpToolDefinitionError = McpDefinitionError;

/** @deprecated Use {@link McpDefinitionError}. */
export type McpToolDefinitionError = McpDefinitionError;
