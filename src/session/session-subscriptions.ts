/**
 * The most resources one session may subscribe to: each costs memory for the session's life.
 * @category Sessions
 */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 1000;

/**
 * The most characters of subscribed URIs one session may hold (1000 URIs of 8 KiB would be 8 MB).
 * @category Sessions
 */
export const MAX_SUBSCRIBED_URI_CHARS = 256 * 1024;

/** The URIs of resources one session subscribed to (`resources/subscribe`), bounded in count and size. */
export class SessionSubscriptions {
  private readonly uris = new Set<string>();
  private chars = 0;

  /**
   * @returns false when the session would hold more than {@link MAX_SUBSCRIPTIONS_PER_SESSION}
   *   subscriptions, or more than {@link MAX_SUBSCRIBED_URI_CHARS} characters of URIs.
   */
  add(uri: string): boolean {
    if (this.uris.has(uri)) return true;
    if (this.uris.size >= MAX_SUBSCRIPTIONS_PER_SESSION) return false;
    if (this.chars + uri.length > MAX_SUBSCRIBED_URI_CHARS) return false;
    this.uris.add(uri);
    this.chars += uri.length;
    return true;
  }

  /** Unknown URIs are ignored. */
  delete(uri: string): void {
    if (this.uris.delete(uri)) this.chars -= uri.length;
  }

  has(uri: string): boolean {
    return this.uris.has(uri);
  }

  get size(): number {
    return this.uris.size;
  }
}
