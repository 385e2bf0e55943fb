/**
 * A change clients may be told about: a list of items changed (`list_changed`), or one resource
 * changed (`notifications/resources/updated`).
 * Internal for now: one in-process bus per application.
 */
export type ServerChange =
  | { readonly kind: 'list'; readonly list: 'tools' | 'prompts' | 'resources' }
  | { readonly kind: 'updated'; readonly uri: string };

/**
 * Where changes go to reach every client that listens for them: 2025 sessions (on their GET
 * streams) and 2026-07-28 `subscriptions/listen` streams. In one process (the only one so far); the
 * port is what a bus shared by every instance of a deployment will implement.
 */
export interface ChangeBus {
  /**
   * Sends a change to every listener.
   * @returns how many clients of this instance it was sent (or queued) to.
   */
  publish(change: ServerChange): number;
  /**
   * Hears every change published from now on.
   * @param listener returns how many clients it told.
   * @returns stops hearing.
   */
  subscribe(listener: (change: ServerChange) => number): () => void;
}
