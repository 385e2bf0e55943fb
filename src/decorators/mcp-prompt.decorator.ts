import { SetMetadata } from '@nestjs/common';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import { MCP_PROMPT_METADATA } from '../mcp.constants.js';

/**
 * Exposes a provider or controller method as an MCP prompt, listed by `prompts/list` and rendered
 * by `prompts/get`, behind the same Nest pipeline as tools.
 *
 * The method receives the validated arguments (an instance of `args`, when it is a DTO) and an
 * {@link McpContext}. It returns the messages: a string (one user text message), a content block,
 * a message (`userMessage()`, `assistantMessage()`), an array of those, or a full `GetPromptResult`.
 *
 * @example
 * ```ts
 * @McpPrompt({ name: 'forecast_summary', description: 'Summarise the forecast of a city', args: CityArgs })
 * summary({ city }: CityArgs) { return `Summarise the weather in ${city} for a traveller.`; }
 * ```
 * @category Decorators
 */
export const McpPrompt = (options: McpPromptOptions): MethodDecorator => SetMetadata(MCP_PROMPT_METADATA, options);
