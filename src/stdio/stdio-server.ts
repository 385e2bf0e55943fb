import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS, MCP_SERVERS_CHECK } from '../mcp.constants.js';
import { RequestRouter } from '../dispatch/request-router.js';
import { RequestSessions } from '../session/request-sessions.js';
import { SessionStore } from '../session/session.store.js';
import { StdioConnection, type StdioEnd } from './stdio-connection.js';
import { reserveStdout, type ReservedStdout } from './stdout-reservation.js';

/** The signals that ask a stdio server to stop: the client's SIGTERM, a terminal's Ctrl-C. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * The server of a `transport: 'stdio'` module on the process's stdin and stdout. stdout is reserved
 * for JSON-RPC from the module's init (before the application's own providers start, whose
 * `console.log` would otherwise reach it) to the application's shutdown. Serving starts when the
 * application hands itself over (`McpModule.serveStdio(app)`), and ends when the client closes
 * stdin (the specification's shutdown), on SIGTERM or SIGINT, or when the client stops reading:
 * the application is then closed, its shutdown hooks abort what still runs, and the process exits
 * on its own with code 0.
 */
@Injectable()
export class StdioServer implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('McpStdio');
  private connection: StdioConnection | undefined;
  private stdout: ReservedStdout | undefined;
  private served = false;
  private readonly onSignal = (): void => this.connection?.end('signal');

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly router: RequestRouter,
    private readonly sessions: SessionStore,
    private readonly requestSessions: RequestSessions,
    // Unused but for its place: Nest runs a provider's init hook after those of its dependencies, so
    // an application the check refuses (two stdio servers, say) fails before stdout is taken.
    @Inject(MCP_SERVERS_CHECK) _check: unknown,
  ) {
    refuseHttpOnlyOptions(options);
  }

  /** Whether it serves now. */
  get serving(): boolean {
    return this.connection !== undefined;
  }

  /**
   * Reserves stdout: McpModule's hooks run before those of the modules importing it, so the
   * application's providers log to stderr from their first hook on.
   * @throws Error when another stdio server of the process holds it: the bootstrap fails.
   */
  onModuleInit(): void {
    this.stdout = reserveStdout();
  }

  /**
   * Serves stdin and stdout until the connection ends (see the class).
   * @param flushLogs prints what the application logged before stdout was reserved (its buffered
   *   bootstrap logs): they go to stderr now.
   * @returns why it ended.
   * @throws Error when it serves already, or its application is not initialized.
   */
  serve(flushLogs: () => void = () => undefined): Promise<StdioEnd> {
    const { stdout } = this;
    if (!stdout) throw new Error('McpModule.serveStdio(): the application is not initialized, or closed');
    if (this.connection) throw new Error('McpModule.serveStdio(): this application serves stdio already');
    flushLogs();
    if (stdout.writtenBefore > 0) {
      this.logger.warn(
        `${stdout.writtenBefore} bytes went to stdout before it was reserved for JSON-RPC (Nest's bootstrap logs?): ` +
          'create the application with { bufferLogs: true } so that they wait, and go to stderr',
      );
    }
    const connection = new StdioConnection(process.stdin, stdout, {
      options: this.options,
      router: this.router,
      sessions: this.sessions,
      requestSessions: this.requestSessions,
      logger: this.logger,
    });
    this.connection = connection;
    this.served = true;
    for (const signal of STOP_SIGNALS) process.once(signal, this.onSignal);
    connection.start();
    this.logger.log(`Serving MCP server ${this.options.name} ${this.options.version} on stdio`);
    return connection.ended;
  }

  /** Reads no more: nothing new is served while the application shuts down. */
  onModuleDestroy(): void {
    this.connection?.end('application-closed');
  }

  /**
   * Aborts the stateless requests still running, as `LoneRequests` does over HTTP; after the destroy
   * hooks, so that listen streams ended gracefully first (their results still reach stdout).
   */
  beforeApplicationShutdown(): void {
    this.connection?.abortRunning();
  }

  /** Gives stdin, stdout and the signals back, last of all: until now, every log went to stderr. */
  onApplicationShutdown(): void {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, this.onSignal);
    this.connection?.close();
    this.connection = undefined;
    this.stdout?.release();
    this.stdout = undefined;
    // Paused, a pipe still holds the event loop: the process could not exit. Untouched if never served.
    if (this.served && !process.stdin.destroyed) process.stdin.destroy();
  }
}

/** Options a stdio server cannot honour, refused at bootstrap rather than ignored. */
function refuseHttpOnlyOptions(options: ResolvedMcpOptions): void {
  if (options.state.shared !== undefined) {
    throw new TypeError(
      "McpModule: a stdio server (transport: 'stdio') cannot use options.state.shared: its one client is the " +
        'process that spawned it, there are no other instances to share sessions with',
    );
  }
  if (!options.sessions.enabled) {
    throw new TypeError(
      "McpModule: a stdio server (transport: 'stdio') cannot turn sessions off (options.sessions.enabled: false): " +
        'the process is the session of its one 2025 client, and costs nothing more',
    );
  }
}
