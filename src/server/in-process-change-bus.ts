import type { McpChange, McpChangeBus } from '../interfaces/mcp-change-bus.interface.js';

/** The change bus of one process: listeners hear each change synchronously, as it is published. */
export class InProcessChangeBus implements McpChangeBus {
  private readonly listeners = new Set<(change: McpChange) => number>();

  publish(change: McpChange): number {
    let told = 0;
    for (const listener of this.listeners) told += listener(change);
    return told;
  }

  subscribe(listener: (change: McpChange) => number): () => void {
    // Wrapped, so that one listener subscribed twice is two subscriptions.
    const entry = (change: McpChange): number => listener(change);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }
}
