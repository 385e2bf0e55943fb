import { CallLifecycle } from '../../src/execution/call-lifecycle.js';
import { GuardClock } from '../../src/execution/guard-clock.js';
import { ItemVisibility } from '../../src/execution/item-visibility.js';
import type { ResolvedMcpOptions } from '../../src/interfaces/resolved-mcp-options.interface.js';
import { Schemas } from '../../src/schemas/schemas.js';
import { Sealer } from '../../src/sealing/sealer.js';

/** The call lifecycle and item visibility of one application, wired as the module wires them. */
export function testLifecycle(
  options: ResolvedMcpOptions,
  schemas = new Schemas(),
): { lifecycle: CallLifecycle; visibility: ItemVisibility } {
  const clock = new GuardClock();
  const visibility = new ItemVisibility(options, clock);
  return { lifecycle: new CallLifecycle(options, schemas, visibility, clock, Sealer.ephemeral()), visibility };
}
