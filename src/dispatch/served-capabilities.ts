import { Injectable } from '@nestjs/common';
import type { ServerCapabilities } from '../protocol/mcp.types.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { ResourceStore } from '../resources/resource.store.js';
import { TASKS_EXTENSION } from '../protocol/tasks.js';
import { ToolStore } from '../tools/tool.store.js';

const TOOLS = Object.freeze({ listChanged: true });
const RESOURCES = Object.freeze({ subscribe: true, listChanged: true });
const PROMPTS = Object.freeze({ listChanged: true });
const EMPTY = Object.freeze({});
/** The 2026-07-28 tasks extension, declared while a served tool supports tasks. */
const EXTENSIONS = Object.freeze({ [TASKS_EXTENSION]: EMPTY });
/** The 2025-11-25 tasks capability: tools/call may be a task, tasks may be listed and cancelled. */
const LEGACY_TASKS = Object.freeze({
  list: EMPTY,
  cancel: EMPTY,
  requests: Object.freeze({ tools: Object.freeze({ call: EMPTY }) }),
});

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
    const tasks = tools && this.servesTasks();
    const key =
      (tools ? 1 : 0) | (resources ? 2 : 0) | (prompts ? 4 : 0) | (prompts || templates ? 8 : 0) | (tasks ? 16 : 0);
    let capabilities = this.byKinds.get(key);
    if (!capabilities) {
      capabilities = Object.freeze({
        ...(tools ? { tools: TOOLS } : {}),
        ...(resources ? { resources: RESOURCES } : {}),
        ...(prompts ? { prompts: PROMPTS } : {}),
        ...(prompts || templates ? { completions: EMPTY } : {}),
        logging: EMPTY,
        ...(tasks ? { extensions: EXTENSIONS } : {}),
      });
      this.byKinds.set(key, capabilities);
    }
    return capabilities;
  }

  /** What a 2025 session is told at `initialize`: every kind, and tasks while a served tool supports them. */
  legacy(base: ServerCapabilities): ServerCapabilities {
    return this.servesTasks() ? { ...base, tasks: LEGACY_TASKS } : base;
  }

  /** Whether a served tool may run as a task. */
  private servesTasks(): boolean {
    return this.tools.servedItems().some((tool) => tool.definition.execution?.taskSupport !== undefined);
  }
}
