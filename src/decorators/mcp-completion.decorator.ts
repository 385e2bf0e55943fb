import type { McpCompletionOptions } from '../interfaces/mcp-completion.interface.js';
import { MCP_COMPLETION_METADATA } from '../mcp.constants.js';

/**
 * Makes a provider or controller method the completer of a prompt argument or a resource template
 * variable (`completion/complete`). It receives an {@link McpCompletionRequest} and an
 * {@link McpContext}, runs behind its own Nest pipeline, and returns the candidates (see
 * {@link McpCompletionResult}); only the first 100 are sent, with `total` and `hasMore` set.
 *
 * Stack it to complete several arguments with one method. Only callers who may see the prompt or
 * template (its guards) get completions; the others are answered as if it did not exist. If the
 * method's own guards deny the caller, the answer is an empty list. It may replace the list derived
 * from an `enum` (`@IsIn()`), but not a `complete` entry for the same argument: that fails bootstrap.
 *
 * @example
 * ```ts
 * @McpCompletion({ prompt: 'forecast_summary', argument: 'city' })
 * cities({ value }: McpCompletionRequest) { return this.weather.cities().filter((c) => c.startsWith(value)); }
 * ```
 * @category Decorators
 */
export function McpCompletion(options: McpCompletionOptions): MethodDecorator {
  return (_target, _key, descriptor) => {
    const method = descriptor.value as object;
    const existing = (Reflect.getMetadata(MCP_COMPLETION_METADATA, method) ?? []) as McpCompletionOptions[];
    Reflect.defineMetadata(MCP_COMPLETION_METADATA, [...existing, options], method);
    return descriptor;
  };
}
