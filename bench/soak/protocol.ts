/** What the soak runner asks its server process over IPC, and what it answers. */
export type SoakCommand = { readonly type: 'stats'; readonly gc: boolean } | { readonly type: 'stop' };

/** A snapshot of the server process. */
export interface ServerStats {
  /** heapUsed, after forced GCs when asked for them. */
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
  readonly external: number;
  /** Live 2025 sessions (`McpSessionRegistry.size`). */
  readonly sessions: number;
  /** Open `subscriptions/listen` streams. */
  readonly listens: number;
  /** Sessions whose GET stream the instance holds open. */
  readonly streams: number;
  /** `process.getActiveResourcesInfo()`, counted by type (timers included). */
  readonly resources: Readonly<Record<string, number>>;
  /** Listeners on the HTTP server, by event. */
  readonly serverListeners: Readonly<Record<string, number>>;
  /** Listeners on `process`, by event. */
  readonly processListeners: Readonly<Record<string, number>>;
  /** Connections the HTTP server holds open. */
  readonly connections: number;
  /** CPU (user + system) used so far, µs. */
  readonly cpuMicros: number;
}

export type SoakReport =
  | { readonly type: 'ready'; readonly url: string }
  | ({ readonly type: 'stats' } & ServerStats)
  | { readonly type: 'error'; readonly message: string };
