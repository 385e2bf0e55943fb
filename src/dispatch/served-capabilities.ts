import { Injectable } from '@nestjs/common';
import type { ServerCapabilities } from '../protocol/mcp.types.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { ResourceStore } from '../resources/resource.store.js';
import { ToolStore } from '../tools/tool.store.js';

const TOOLS = Object.freeze({ listChanged: true });
const RESOURCES = Object.freeze({ subscribe: true, listChanged: true });
const PROMPTS = Object.freeze({ listChanged: true });
const EMPTY = Object.freeze({});

/**
 * The capabilities a 2026-07-28 client is told of, as they are now: a kind of item is declared only
 * while the server serves some (a server without prompts, or with all of them disabled, has no
 * `prompts/list`), completion while it has
 * prompts or resource templates to complete, logging always. (2025 sessions are told every
 * capability at `initialize`, because items may come later in their lives.)
 */
@Injectable()
export class ServedCapabilities {
  /** One frozen object per combination of kinds present, made on first use. */
  private readonly byKinds = new Map<number, ServerCapabilities>();

  constructor(
    private readonly tools: ToolStore,
    private readonly resources: ResourceStore,
    private readonly prompts: PromptStore,
  ) {}

  get current(): ServerCapabilities {
    // Served items: a kind whose items are all disabled is not served (its list would be empty).
    const tools = this.tools.servedItems().length > 0;
    const templates = this.resources.templates.servedItems().length > 0;
    const resources = templates || this.resources.resources.servedItems().length > 0;
    const prompts = this.prompts.servedItems().length > 0;
    const key = (tools ? 1 : 0) | (resources ? 2 : 0) | (prompts ? 4 : 0) | (prompts || templates ? 8 : 0);
    let capabilities = this.byKinds.get(key);
    if (!capabilities) {
      capabilities = Object.freeze({
        ...(tools ? { tools: TOOLS } : {}),
        ...(resources ? { resources: RESOURCES } : {}),
        ...(prompts ? { prompts: PROMPTS } : {}),
        ...(prompts || templates ? { completions: EMPTY } : {}),
        logging: EMPTY,
      });
      this.byKinds.set(key, capabilities);
    }
    return capabilities;
  }
}
