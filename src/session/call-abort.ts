import type { McpCallAbort } from '../interfaces/mcp-caller.interface.js';

const NOTHING_TO_REMOVE = (): void => undefined;

/**
 * An `AbortController` made when first needed (see {@link McpCallAbort}). Every call has one, and
 * an `AbortController` with a listener added and removed again cost a tool call about 7 µs (a tenth
 * of what mcp42 spends on it): most calls are never cancelled, and their handlers never read
 * `ctx.signal`.
 */
export class CallAbort implements McpCallAbort {
  private controller: AbortController | undefined;
  private abortedWith: { readonly reason: unknown } | undefined;
  private listeners: (() => void)[] | undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  get reason(): unknown {
    return this.abortedWith?.reason;
  }

  abort(reason: unknown): void {
    if (this.abortedWith) return;
    this.abortedWith = { reason };
    const listeners = this.listeners;
    this.listeners = undefined;
    // The lifecycle's listeners first: they were the signal's first ones when it was made up front.
    if (listeners) for (const listener of listeners) listener();
    this.controller?.abort(reason);
  }

  onAbort(listener: () => void): () => void {
    if (this.abortedWith) return NOTHING_TO_REMOVE;
    (this.listeners ??= []).push(listener);
    return () => {
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.listeners!.splice(index, 1);
    };
  }
}
