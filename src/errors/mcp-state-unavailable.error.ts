/**
 * The shared state (`options.state.shared`, e.g. Redis) cannot be reached now, or answered too slowly. The
 * transport answers a request that needed it with 503 and `Retry-After`; host code calling
 * `McpSessionRegistry.countAll()` may meet it too.
 * @category Errors
 */
export class McpStateUnavailableError extends Error {
  constructor(message = 'Shared session state is unavailable', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpStateUnavailableError';
  }
}
