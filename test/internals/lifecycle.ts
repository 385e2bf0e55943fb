import { CallLifecycle } from '../../src/execution/call-lifecycle.js';
import { GuardClock } from '../../src/execution/guard-clock.js';
import { ItemVisibility } from '../../src/execution/item-visibility.js';
import type { ResolvedMcpOptions } from '../../src/interfaces/resolved-mcp-options.interface.js';
import { Schemas } from '../../src/schemas/schemas.js';
import { Sealer } from '../../src/sealing/sealer.js';
import { TaskService } from '../../src/tasks/task.service.js';
import { ToolCaller } from '../../src/tools/tool.caller.js';
import type { ToolStore } from '../../src/tools/tool.store.js';

/** The call lifecycle and item visibility of one application, wired as the module wires them. */
export function testLifecycle(
  options: ResolvedMcpOptions,
  schemas = new Schemas(),
): { lifecycle: CallLifecycle; visibility: ItemVisibility } {
  const clock = new GuardClock();
  const visibility = new ItemVisibility(options, clock);
  return { lifecycle: new CallLifecycle(options, schemas, visibility, clock, Sealer.ephemeral()), visibility };
}

/** A tool caller wired as the module wires it: its lifecycle and tasks. */
export function testToolCaller(store: ToolStore, options: ResolvedMcpOptions, schemas = new Schemas()): ToolCaller {
  const { lifecycle } = testLifecycle(options, schemas);
  return new ToolCaller(store, lifecycle, new TaskService(options));
}
