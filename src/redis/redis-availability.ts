import type { SharedStateHooks } from '../interfaces/mcp-shared-state.interface.js';

/**
 * Tells `onAvailability` about changes: once per change, from the baseline "up", and only between
 * {@link arm} (once `start` has settled) and {@link disarm} (stopping is not an outage).
 * @internal
 */
export class AvailabilityReport {
  private hooks: Pick<SharedStateHooks, 'onAvailability'> | undefined;
  private reportedUp = true;

  constructor(private readonly isUp: () => boolean) {}

  arm(hooks: Pick<SharedStateHooks, 'onAvailability'>): void {
    this.hooks = hooks;
  }

  disarm(): void {
    this.hooks = undefined;
  }

  /** Reports the availability now if it changed since the last report; `cause` explains a fall. */
  update(cause: unknown): void {
    const hooks = this.hooks;
    if (!hooks) return;
    const up = this.isUp();
    if (up === this.reportedUp) return;
    this.reportedUp = up;
    try {
      hooks.onAvailability(up, up ? undefined : cause);
    } catch {
      // A hook's failure is the core's business, never the connection's.
    }
  }
}
