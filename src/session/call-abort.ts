import type { CallAbortHandle } from '../interfaces/caller.interface.js';

const NOTHING_TO_REMOVE = (): void => undefined;

/**
 * An `AbortController` made when first needed (see {@link CallAbortHandle}). Every call has one, and
 * an `AbortController` with a listener added and removed again cost a tool call about 7 µs (a tenth
 * of what mcp42 spends on it): most calls are never cancelled, and their handlers never read
 * `ctx.signal`. It behaves as the controller it stands for: the signal, once made, is aborted before
 * any listener runs; the `onAbort` listeners run first, in order, each once, a removed one not at
 * all, and one that throws neither stops the others nor the signal (its error is rethrown
 * asynchronously, as an `EventTarget` does).
 */
export class CallAbort implements CallAbortHandle {
  private controller: AbortController | undefined;
  private abortedWith: { readonly reason: unknown } | undefined;
  private listeners: Set<() => void> | undefined;
  /** On the signal, while it exists and there are listeners: runs them when it aborts. */
  private dispatcher: (() => void) | undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.abortedWith) controller.abort(this.abortedWith.reason);
      // The first listener of the signal: the lifecycle's listeners run before any a handler adds.
      else if (this.listeners?.size) this.listenOnSignal();
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
    // As AbortController.abort(): no reason means an AbortError, the same one for both views.
    this.abortedWith = {
      reason: reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason,
    };
    if (this.controller) this.controller.abort(this.abortedWith.reason);
    // With a signal, the dispatcher on it has run them, if there were any.
    if (!this.dispatcher) this.dispatch();
  }

  onAbort(listener: () => void): () => void {
    if (this.abortedWith) return NOTHING_TO_REMOVE;
    // A function added twice is one listener, as with addEventListener.
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    if (this.controller && !this.dispatcher) this.listenOnSignal();
    return () => {
      // The last one gone, nothing stays on the signal: a call that ends unaborted leaves no listener.
      if (listeners.delete(listener) && listeners.size === 0 && this.dispatcher && !this.abortedWith) {
        this.controller?.signal.removeEventListener('abort', this.dispatcher);
        this.dispatcher = undefined;
      }
    };
  }

  private listenOnSignal(): void {
    this.dispatcher = () => this.dispatch();
    this.controller!.signal.addEventListener('abort', this.dispatcher, { once: true });
  }

  private dispatch(): void {
    const listeners = this.listeners;
    this.listeners = undefined;
    if (!listeners) return;
    for (const listener of [...listeners]) {
      // Removed by a listener that ran before it.
      if (!listeners.delete(listener)) continue;
      try {
        listener();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
