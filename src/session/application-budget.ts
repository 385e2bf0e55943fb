import { Injectable } from '@nestjs/common';
import { BufferBudget } from './buffer-budget.js';

/**
 * The one {@link BufferBudget} of an application, shared by all its MCP servers: what a process can
 * hold for slow readers does not grow with the number of servers in it. Provided by
 * `ApplicationBudgetModule`, a static module every `McpModule.forRoot()` imports, which Nest makes
 * once per application: two applications in one process each have their own, and nothing is kept
 * in module-level state.
 */
@Injectable()
export class ApplicationBudget {
  private budget: BufferBudget | undefined;

  /**
   * The application's budget, for a server whose `limits.bufferedChars` is `limit`: the first
   * server makes it, and one asking less tightens it (the smallest of the servers' limits holds).
   */
  join(limit: number): BufferBudget {
    if (!this.budget) this.budget = new BufferBudget(limit);
    else this.budget.tighten(limit);
    return this.budget;
  }
}
