import type { ServerChange, ChangeBus } from '../interfaces/change-bus.interface.js';

/** The change bus of one process: listeners hear each change synchronously, as it is published. */
export class InProcessChangeBus implements ChangeBus {
  private readonly listeners = new Set<(change: ServerChange) => number>();

  publish(change: ServerChange): number {
    let told = 0;
    for (const listener of this.listeners) told += listener(change);
    return told;
  }

  subscribe(listener: (change: ServerChange) => number): () => void {
    // Wrapped, so that one listener subscribed twice is two subscriptions.
    const entry = (change: ServerChange): number => listener(change);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }
}
