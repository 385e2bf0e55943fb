import { Observable, Subject } from 'rxjs';

/**
 * Coalesces the changes made in one synchronous burst into one emission, after the burst: a feature
 * flag flipping ten items, or a resource and a template added together, is one `list_changed`.
 */
export class ChangeBurst {
  private readonly changed = new Subject<void>();
  private pending = false;

  /** Emits once per burst, in the microtask after it. */
  get changes(): Observable<void> {
    return this.changed.asObservable();
  }

  /** Records a change; the burst's emission is scheduled by its first change. */
  touch(): void {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.changed.next();
    });
  }

  /** Stops emitting (the application is shutting down). */
  complete(): void {
    this.changed.complete();
  }
}
