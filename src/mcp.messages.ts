import { MAX_TIMER_MS } from './mcp.constants.js';

/** Message builders for errors a developer sees at bootstrap; kept apart so they stay consistent. */

export const invalidToolNameMessage = (name: string, owner: string): string =>
  `@McpTool() on ${owner}: tool name "${name}" is invalid; use 1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and "."`;

export const duplicateToolMessage = (name: string, first: string, second: string): string =>
  first === second
    ? `@McpTool() name "${name}" is served twice by ${first}: its class is instantiated twice (provided in two modules or under two tokens); provide it once`
    : `@McpTool() name "${name}" is used twice: by ${first} and by ${second}; give one of them another name`;

export const missingDescriptionMessage = (owner: string): string =>
  `@McpTool() on ${owner}: a description is required (the model decides whether to call the tool from it)`;

export const invalidTimeoutMessage = (owner: string, timeoutMs: unknown): string =>
  `@McpTool() on ${owner}: timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${String(timeoutMs)}`;
