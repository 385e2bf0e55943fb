import type { LoggerService } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import type { McpStdioRequest } from '../interfaces/mcp-transport.interface.js';
import { RequestRouter } from '../dispatch/request-router.js';
import { loggedSerializationReports } from '../dispatch/serialization-reports.js';
import { classifyPost } from '../protocol/era-classifier.js';
import { decodeBody } from '../protocol/json-rpc.codec.js';
import { errorResponse, invalidRequest } from '../protocol/json-rpc.errors.js';
import { legacyRefusal } from '../protocol/legacy-refusal.js';
import { withoutUnreadableId } from '../protocol/modern-era.js';
import { RequestSessions } from '../session/request-sessions.js';
import { SessionStore } from '../session/session.store.js';
import { LineReader } from './line-reader.js';
import { StdioOutput, type LineSink } from './stdio-output.js';
import { NO_HEADERS, StdioSession } from './stdio-session.js';
import { StdioStateless } from './stdio-stateless.js';

/**
 * Why a connection ended: the client closed stdin, a signal asked the process to stop, the client
 * stopped reading stdout (closed it, or let more than `limits.outboxMessages` messages or `limits.outboxChars` characters wait), its
 * session ended otherwise (host code ended it), or the application closed on its own.
 */
export type StdioEnd =
  'end-of-input' | 'signal' | 'output-closed' | 'overflow' | 'session-ended' | 'application-closed';

/** What a connection is served with. */
export interface StdioConnectionDeps {
  readonly options: ResolvedMcpOptions;
  readonly router: RequestRouter;
  readonly sessions: SessionStore;
  readonly requestSessions: RequestSessions;
  readonly logger: LoggerService;
}

/**
 * One stdio connection: newline-delimited JSON-RPC read from `input`, written to `sink`. Each line
 * is decoded with the codec and its era decided as a POST body's is, body first (stdio has no
 * headers): a request whose `_meta` claims a version is served statelessly ({@link StdioStateless}),
 * anything else as traffic of the 2025 session the process is ({@link StdioSession}). Lines are
 * served concurrently, as requests arrive: a call waiting for the client's answer to an elicitation
 * must not keep that answer from being read. A line that is not JSON, or longer than
 * `limits.bodyBytes`, gets its JSON-RPC error and the connection goes on.
 */
export class StdioConnection {
  private readonly reader: LineReader;
  private readonly output: StdioOutput;
  private readonly legacy: StdioSession;
  private readonly stateless: StdioStateless;
  private stopped = false;
  private resolveEnded!: (end: StdioEnd) => void;
  /** Resolves with the first reason the connection ended for. */
  readonly ended = new Promise<StdioEnd>((resolve) => (this.resolveEnded = resolve));
  private readonly onData = (chunk: Buffer | string): void => this.read(chunk);
  private readonly onEnd = (): void => this.end('end-of-input');

  constructor(
    private readonly input: Readable,
    sink: LineSink,
    private readonly deps: StdioConnectionDeps,
  ) {
    const { options, logger } = deps;
    this.reader = new LineReader(options.limits.bodyBytes);
    const { outboxMessages, outboxChars } = options.limits;
    this.output = new StdioOutput(sink, {
      blocked: () => this.input.pause(),
      drained: () => {
        if (!this.stopped) this.input.resume();
      },
      pending: (count, chars) => {
        if ((count <= outboxMessages && chars <= outboxChars) || this.stopped) return;
        logger.warn(
          `The client left more than ${outboxMessages} messages or ${outboxChars} characters unread on stdout ` +
            '(limits.outboxMessages, limits.outboxChars)',
        );
        this.end('overflow');
      },
      broken: () => this.end('output-closed'),
      ...loggedSerializationReports(logger),
    });
    this.legacy = new StdioSession({
      router: deps.router,
      sessions: deps.sessions,
      requestSessions: deps.requestSessions,
      output: this.output,
      sessionEnded: () => this.end('session-ended'),
    });
    this.stateless = new StdioStateless({
      router: deps.router,
      output: this.output,
      principalOf: options.auth.principalOf,
    });
  }

  /** Starts reading. */
  start(): void {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.once('error', this.onEnd);
    this.input.resume();
  }

  /** Stops reading and resolves {@link ended}; what runs is left to the application's shutdown. */
  end(why: StdioEnd): void {
    if (!this.stopped) {
      this.stopped = true;
      this.input.removeListener('data', this.onData);
      this.input.pause();
    }
    this.resolveEnded(why);
  }

  /** Aborts the stateless requests still running (the session's calls end with the session). */
  abortRunning(): void {
    this.stateless.abortAll(new McpCallAbortedError('shutdown', 'The server is shutting down'));
  }

  /** Nothing more goes to the sink: the application has closed. */
  close(): void {
    this.end('application-closed');
    this.legacy.stop();
    this.output.close();
    this.input.removeListener('end', this.onEnd);
    this.input.removeListener('error', this.onEnd);
  }

  private read(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const event of this.reader.push(bytes)) {
      if (event.kind === 'too-long') {
        this.output.respond(
          errorResponse(
            null,
            invalidRequest(`the message is longer than ${this.deps.options.limits.bodyBytes} bytes (limits.bodyBytes)`),
          ),
        );
      } else if (event.text.trim().length > 0) {
        this.serve(event.text).catch((error: unknown) => {
          this.deps.logger.error(
            'An MCP message on stdin could not be served',
            error instanceof Error ? error.stack : String(error),
          );
        });
      }
    }
  }

  /** One line: decoded, its era decided (body first), served. */
  private serve(line: string): Promise<void> {
    const body = decodeBody(line);
    const request = this.requestOf();
    const { eras } = this.deps.options;
    if (eras !== 'legacy') {
      const verdict = classifyPost(body, undefined, false);
      if (verdict.era === 'refused') {
        this.output.send(withoutUnreadableId(verdict.response));
        return Promise.resolve();
      }
      if (verdict.era === 'modern') return this.stateless.handle(verdict.message, request);
      if (eras === 'modern') {
        const refusal = legacyRefusal(body, undefined, this.deps.router.supportedVersions);
        if (refusal) this.output.respond(refusal);
        return Promise.resolve();
      }
    }
    return this.legacy.handle(body, request);
  }

  /** A request of its own for every message, as over HTTP: request-scoped providers are per message. */
  private requestOf(): McpStdioRequest {
    const { user } = this.deps.options.stdio;
    return {
      transport: 'stdio',
      headers: NO_HEADERS,
      user: typeof user === 'function' ? (user as () => unknown)() : user,
    };
  }
}
