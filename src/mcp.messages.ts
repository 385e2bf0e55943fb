/** Message builders for errors a developer sees at bootstrap; kept apart so they stay consistent. */

export const invalidToolNameMessage = (name: string, owner: string): string =>
  `@McpTool() on ${owner}: tool name "${name}" is invalid; use 1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and "."`;

export const duplicateToolMessage = (name: string, first: string, second: string): string =>
  first === second
    ? `@McpTool() name "${name}" is served twice by ${first}: its class is instantiated twice (provided in two modules or under two tokens); provide it once`
    : `@McpTool() name "${name}" is used twice: by ${first} and by ${second}; give one of them another name`;

export const missingDescriptionMessage = (owner: string): string =>
  `@McpTool() on ${owner}: a description is required (the model decides whether to call the tool from it)`;

export const nonStaticProviderMessage = (owner: string): string =>
  `${owner} has @McpTool() methods but is request-scoped or transient; such providers are not supported yet and its tools are not served`;

export const unsupportedEnhancersMessage = (owner: string, kinds: readonly string[]): string =>
  `@McpTool() on ${owner}: ${kinds.join(', ')} on tools are not applied yet (they would be silently skipped); ` +
  `remove them, check inside the tool, or protect the endpoint with McpModule.forRoot({ guards }) or a global guard`;

export const controllerEnhancersMessage = (className: string, kinds: readonly string[]): string =>
  `${className} has ${kinds.join(', ')} at class level: they apply to its HTTP routes, not to its @McpTool() methods`;

export const invalidTimeoutMessage = (owner: string, timeoutMs: unknown): string =>
  `@McpTool() on ${owner}: timeoutMs must be a whole number of milliseconds from 1 to ${2 ** 31 - 1}, got ${String(timeoutMs)}`;
