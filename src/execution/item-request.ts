/**
 * What an MCP handler serves: a tool, a resource or resource template, a prompt, or a completion.
 * @category Context
 */
export type McpItemKind = 'tool' | 'resource' | 'resourceTemplate' | 'prompt' | 'completion';

/** What one request of an item is about: enough to build its invocation and to name it in logs. */
export interface ItemRequest {
  readonly kind: McpItemKind;
  readonly name: string;
  readonly uri?: string;
}

const KIND_NAMES: Record<McpItemKind, string> = {
  tool: 'Tool',
  resource: 'Resource',
  resourceTemplate: 'Resource template',
  prompt: 'Prompt',
  completion: 'Completion of',
};

/** `Tool forecast`, `Prompt forecast_summary`, `Completion of forecast_summary`: how messages name an item. */
export function describeItem(item: ItemRequest): string {
  return `${KIND_NAMES[item.kind]} ${item.name}`;
}
