import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';

/**
 * What the gate needs to know of the connections.
 * @internal
 */
export interface RedisOpsHost {
  /** Operations in flight at most. */
  readonly maxPendingOperations: number;
  /** Whether operations can be sent now (the connections are ready). */
  connected(): boolean;
  /** The last connection error seen, to explain a refusal. */
  lastError(): unknown;
  /** One cheap command (PING) that tells whether Redis answers again. */
  probe(): Promise<unknown>;
  /** The breaker opened (with the timeout that tripped it) or closed. */
  onBreaker(open: boolean, cause?: unknown): void;
}

/** Consecutive timeouts that open the breaker. */
const TRIP_AFTER = 3;
/** How long the breaker stays open before one probe. */
const OPEN_MS = 1_000;
/**
 * The share of `maxPendingOperations` that background writes (stored events) may fill: the rest is
 * kept for the operations requests wait on (loading a session, admitting one), so that a flood of
 * broadcast events is refused before any request is.
 */
const BACKGROUND_SHARE = 0.75;

/**
 * The gate every Redis operation goes through. It refuses at once (`McpStateUnavailableError`)
 * rather than queue: while the connections are not ready, while the breaker is open, and past
 * `maxPendingOperations` in flight. A slow Redis thus costs each request at most one
 * `operationTimeoutMs`, and after three timeouts in a row none at all until a probe answers.
 * @internal
 */
export class RedisOps {
  private inFlight = 0;
  private timeouts = 0;
  private tripCause: unknown;
  private probeTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly host: RedisOpsHost) {}

  /** Whether the breaker is open (operations refused until a probe answers). */
  get open(): boolean {
    return this.tripCause !== undefined;
  }

  /** Operations in flight now. */
  get pending(): number {
    return this.inFlight;
  }

  /**
   * Runs `operation`, or refuses; any failure becomes `McpStateUnavailableError` (its cause kept).
   * @param background a write no request waits on: refused once three quarters of
   *   `maxPendingOperations` are in flight, leaving the rest to requests.
   */
  run<T>(operation: () => Promise<T>, background = false): Promise<T> {
    const refusal = this.refusal(background);
    if (refusal) return Promise.reject(refusal);
    this.inFlight++;
    let running: Promise<T>;
    try {
      running = operation();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then(
      (value) => {
        this.inFlight--;
        this.timeouts = 0;
        return value;
      },
      (error: unknown) => {
        this.inFlight--;
        this.failed(error);
        throw unavailable(error);
      },
    );
  }

  /** The connections became ready: whatever tripped the breaker is over. */
  reset(): void {
    this.timeouts = 0;
    this.close();
  }

  /** Stops probing, for good. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.probeTimer);
  }

  private refusal(background: boolean): McpStateUnavailableError | undefined {
    if (!this.host.connected()) {
      return withoutStack(
        () =>
          new McpStateUnavailableError('Shared session state (Redis) is not connected', {
            cause: this.host.lastError(),
          }),
      );
    }
    if (this.open) {
      return withoutStack(
        () =>
          new McpStateUnavailableError(
            'Shared session state (Redis) answered too slowly; operations pause until it answers again',
            { cause: this.tripCause },
          ),
      );
    }
    const cap = background
      ? Math.max(1, Math.floor(this.host.maxPendingOperations * BACKGROUND_SHARE))
      : this.host.maxPendingOperations;
    if (this.inFlight >= cap) {
      return withoutStack(
        () =>
          new McpStateUnavailableError(
            `Shared session state (Redis) has ${this.inFlight} operations in flight already (maxPendingOperations)`,
          ),
      );
    }
    return undefined;
  }

  private failed(error: unknown): void {
    // Only timeouts trip: a refused connection is already reported by its status, a script error
    // says nothing about Redis' health.
    if (!isTimeout(error)) return;
    this.timeouts++;
    if (this.timeouts < TRIP_AFTER || this.open) return;
    this.tripCause = error;
    this.host.onBreaker(true, error);
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.disposed) return;
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => this.probe(), OPEN_MS);
    this.probeTimer.unref();
  }

  private probe(): void {
    if (this.disposed || !this.open) return;
    // Disconnected meanwhile: the next `ready` resets the breaker; until then keep looking.
    if (!this.host.connected()) return this.scheduleProbe();
    this.host.probe().then(
      () => this.close(),
      () => this.scheduleProbe(),
    );
  }

  private close(): void {
    clearTimeout(this.probeTimer);
    if (!this.open) return;
    this.tripCause = undefined;
    this.timeouts = 0;
    if (!this.disposed) this.host.onBreaker(false);
  }
}

/** ioredis' `commandTimeout` rejection. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Command timed out';
}

/** The error a caller of the port sees. */
function unavailable(error: unknown): McpStateUnavailableError {
  if (error instanceof McpStateUnavailableError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new McpStateUnavailableError(`Shared session state (Redis) failed: ${reason}`, { cause: error });
}

/**
 * Makes an error without capturing a stack. Refusals come by the thousand under a flood, and the
 * stack (always this gate's) was most of what they cost: a sixteenth of a flooded instance's time.
 */
function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
