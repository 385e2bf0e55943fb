import { Logger } from '@nestjs/common';
import type { ServerChange, ChangeBus } from '../interfaces/change-bus.interface.js';
import type { SharedSessions } from '../session/shared-sessions.js';
import { encodeMessage, notificationMessage } from '../protocol/json-rpc.codec.js';
import { Method } from '../protocol/methods.js';
import { InProcessChangeBus } from './in-process-change-bus.js';

/**
 * The change bus of an application whose instances share state: a resource update reaches the
 * listen streams of every instance (each hears it once, through the shared state, its own included)
 * and every 2025 session subscribed to it, wherever its stream is held; a list change stays on the instance whose registry changed. Runtime registry changes are made by
 * host code on each instance (a handler cannot cross processes), so each instance announces its own
 * change to the clients it holds, and a client hears it once, from the instance holding its stream.
 */
export class SharedChangeBus implements ChangeBus {
  private readonly logger = new Logger('McpSharedState');
  private readonly local = new InProcessChangeBus();

  constructor(private readonly sessions: SharedSessions) {
    sessions.on('resource-updated', ({ uri }) => this.local.publish({ kind: 'updated', uri }));
  }

  publish(change: ServerChange): number {
    if (change.kind === 'list') return this.local.publish(change);
    // 2026-07-28 listen streams: every instance delivers to its own.
    this.sessions.broadcast({ kind: 'resource-updated', uri: change.uri }).catch((error: unknown) => {
      this.logger.warn(`A resource update reached only this instance's listen streams: ${String(error)}`);
      this.local.publish(change);
    });
    // 2025 sessions: each subscribed one, through its own stream wherever it is held (or its backlog).
    const data = encodeMessage(notificationMessage(Method.ResourceUpdated, { uri: change.uri }));
    this.sessions.notifySubscribers(change.uri, data).catch((error: unknown) => {
      this.logger.warn(`A resource update did not reach 2025 sessions: ${String(error)}`);
    });
    // Delivered when the shared state hands it back, to this instance's clients among all others.
    return 0;
  }

  subscribe(listener: (change: ServerChange) => number): () => void {
    return this.local.subscribe(listener);
  }
}
