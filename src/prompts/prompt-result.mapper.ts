import type { ContentBlock, GetPromptResult, PromptMessage } from '../protocol/mcp.types.js';
import { isContentBlock } from '../content/content.checks.js';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

/**
 * Maps what a prompt method returned to a `GetPromptResult`:
 * - a string is one user message of text; a content block is one user message holding it;
 * - a message (`{ role, content }`) is itself; an array of strings, blocks and messages is the messages;
 * - `{ messages: [...] }` is a result already (its messages checked the same way).
 * The prompt's description is added when the result has none.
 *
 * @throws TypeError for anything else (a role other than user/assistant, a malformed block): a bug of the prompt.
 */
export function toGetPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  if (isObject(value) && !Array.isArray(value) && Array.isArray(value.messages)) {
    // Only the fields the schema knows, checked: a client rejects a whole result over one bad field.
    if (value.description !== undefined && typeof value.description !== 'string') {
      throw new TypeError('description must be a string');
    }
    if (value._meta !== undefined && (!isObject(value._meta) || Array.isArray(value._meta))) {
      throw new TypeError('_meta must be an object');
    }
    const own = (value.description as string | undefined) ?? description;
    return {
      ...(own === undefined ? {} : { description: own }),
      messages: value.messages.map(toMessage),
      ...(value._meta === undefined ? {} : { _meta: value._meta as Record<string, unknown> }),
    };
  }
  const messages = Array.isArray(value) ? value.map(toMessage) : [toMessage(value)];
  return description === undefined ? { messages } : { description, messages };
}

function toMessage(value: unknown, index = 0): PromptMessage {
  if (typeof value === 'string') return { role: 'user', content: { type: 'text', text: value } };
  if (isContentBlock(value)) return { role: 'user', content: value };
  if (isObject(value) && 'role' in value) {
    if (value.role !== 'user' && value.role !== 'assistant') {
      throw new TypeError(`message ${index}: role must be "user" or "assistant"`);
    }
    if (!isContentBlock(value.content)) {
      throw new TypeError(
        `message ${index}: content must be one well-formed content block (text, image, audio, resource)`,
      );
    }
    return { role: value.role, content: value.content as ContentBlock };
  }
  throw new TypeError(
    `message ${index}: a prompt returns strings, content blocks, { role, content } messages, or { messages }`,
  );
}
