import type { ContentBlock, PromptMessage } from '../protocol/mcp.types.js';
import { text } from './content.builders.js';

/**
 * A prompt message from the user: a string becomes a text block.
 * @example
 * ```ts
 * return [userMessage(embeddedText(uri, report)), userMessage('Summarise the report above.')];
 * ```
 * @category Content helpers
 */
export function userMessage(content: string | ContentBlock): PromptMessage {
  return { role: 'user', content: typeof content === 'string' ? text(content) : content };
}

/**
 * A prompt message from the assistant (an example answer, a conversation's earlier turn).
 * @category Content helpers
 */
export function assistantMessage(content: string | ContentBlock): PromptMessage {
  return { role: 'assistant', content: typeof content === 'string' ? text(content) : content };
}
