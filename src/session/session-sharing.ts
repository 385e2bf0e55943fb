import type { StreamSharing } from './session-streams.js';

/**
 * What one session does beyond its own process when several instances serve it (shared state).
 * @internal
 */
export interface SessionSharing {
  readonly streams: StreamSharing;
  /** Starts the ids of requests to the client: names this instance. */
  readonly requestIdPrefix: string;
  /**
   * A message for the standalone stream while this instance holds no connection of it.
   * @returns false when it was dropped: no room in the budget for it on its way to the shared state.
   */
  sendStandalone(data: string): boolean;
  /** A field every instance must see changed (`ll` log level, `in` initialized). */
  changed(field: 'll' | 'in', value: string): void;
  /** Records a subscription where every instance sees it; false past the bounds. */
  subscribe(uri: string): Promise<boolean>;
  unsubscribe(uri: string): void;
}
