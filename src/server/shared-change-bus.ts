import { Logger } from '@nestjs/common';
import type { McpChange, McpChangeBus } from '../interfaces/mcp-change-bus.interface.js';
import type { SharedSessions } from '../session/shared-sessions.js';
import { encodeMessage, notificationMessage } from '../protocol/json-rpc.codec.js';
import { McpMethod } from '../protocol/mcp.methods.js';
import { InProcessChangeBus } from './in-process-change-bus.js';

/**
 * The change bus of an application whose instances share state: a resource update reaches the
 * listen streams of every instance (each hears it once, through the shared state, its own included)
 * and every 2025 session subscribed to it, wherever its stream is held; a list change stays on the instance whose registry changed. Runtime registry changes are made by
 * host code on each instance (a handler cannot cross processes), so each instance announces its own
 * change to the clients it holds, and a client hears it once, from the instance holding its stream.
 */
export class SharedChangeBus implements McpChangeBus {
  private readonly logger = new Logger('McpSharedState');
  private readonly local = new InProcessChangeBus();

  constructor(private readonly sessions: SharedSessions) {
    sessions.on('chg', (message) => {
      const change = message.c as McpChange | undefined;
      if (change?.kind === 'updated' && typeof change.uri === 'string') {
        this.local.publish({ kind: 'updated', uri: change.uri });
      }
    });
  }

  publish(change: McpChange): number {
    if (change.kind === 'list') return this.local.publish(change);
    // 2026-07-28 listen streams: every instance delivers to its own.
    this.sessions.broadcast({ t: 'chg', c: change }).catch((error: unknown) => {
      this.logger.warn(`A resource update reached only this instance's listen streams: ${String(error)}`);
      this.local.publish(change);
    });
    // 2025 sessions: each subscribed one, through its own stream wherever it is held (or its backlog).
    const data = encodeMessage(notificationMessage(McpMethod.ResourceUpdated, { uri: change.uri }));
    this.sessions.notifySubscribers(change.uri, data).catch((error: unknown) => {
      this.logger.warn(`A resource update did not reach 2025 sessions: ${String(error)}`);
    });
    // Delivered when the shared state hands it back, to this instance's clients among all others.
    return 0;
  }

  subscribe(listener: (change: McpChange) => number): () => void {
    return this.local.subscribe(listener);
  }
}
