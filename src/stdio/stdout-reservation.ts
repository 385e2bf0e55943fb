/**
 * While a stdio server serves, stdout is its JSON-RPC channel and nothing else: the specification
 * says the server "MUST NOT write anything to its stdout that is not a valid MCP message", and a
 * stray line (Nest's ConsoleLogger writes `log`/`warn` there, `console.log` from host code too)
 * would corrupt the stream. So every other write to `process.stdout` goes to stderr, where clients
 * expect logs, and only the reservation's own writer reaches fd 1.
 *
 * This is process-global state on purpose: stdout is the process's, one stream, so there is one
 * reservation at most (a second stdio server in the process is refused: it could only fight over
 * the same stdin). It is undone when the server stops.
 */

/** The writer of the reserved stdout: the only code that still writes to fd 1. */
export interface ReservedStdout {
  /** Writes to the real stdout; `false` when its buffer is full (wait for `'drain'` on `stream`). */
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
  /** The stream, for its `'drain'` and `'error'` events. */
  readonly stream: NodeJS.WriteStream;
  /** Bytes written to stdout before the reservation (Nest's bootstrap logs, unless buffered). */
  readonly writtenBefore: number;
  /** Gives stdout back: other writes reach it again. Idempotent. */
  release(): void;
}

type Write = NodeJS.WriteStream['write'];

/** The reservation in force, if any: process-global, as stdout is. */
let current: ReservedStdout | undefined;

/**
 * Reserves stdout for JSON-RPC (see the file's comment).
 * @throws Error when it is reserved already: one stdio server per process.
 */
export function reserveStdout(): ReservedStdout {
  if (current) {
    throw new Error(
      'McpModule: stdout is served by another stdio MCP server of this process already; ' +
        'a process has one stdin and one stdout, so it runs one stdio server',
    );
  }
  const stream = process.stdout;
  // Someone's own `write` on the stream (a test runner's, say) is put back as it was on release.
  const own = Object.getOwnPropertyDescriptor(stream, 'write');
  const write: Write = stream.write.bind(stream);
  // Everyone else's writes (loggers, console.log) go to stderr, with the same arguments.
  const toStderr = ((...args: Parameters<Write>) => process.stderr.write(...(args as Parameters<Write>))) as Write;
  stream.write = toStderr;
  // A client that goes away closes its end of the pipe: a write then fails with EPIPE, emitted as an
  // 'error' that, unheard, would crash a process on its way to a clean exit. Kept after the
  // release, for the same reason: the process is ending, and its stdout has no reader.
  if (!stream.listeners('error').includes(ignoreBrokenPipe)) stream.on('error', ignoreBrokenPipe);
  const bytesWritten = (stream as { bytesWritten?: unknown }).bytesWritten;
  const reservation: ReservedStdout = {
    write: (chunk, callback) => write(chunk, 'utf8', callback),
    stream,
    writtenBefore: typeof bytesWritten === 'number' ? bytesWritten : 0,
    release: () => {
      if (current !== reservation) return;
      current = undefined;
      if (stream.write !== toStderr) return; // replaced again by someone else since: theirs now
      if (own) Object.defineProperty(stream, 'write', own);
      else delete (stream as { write?: Write }).write;
    },
  };
  current = reservation;
  return reservation;
}

function ignoreBrokenPipe(): void {
  // The writer of the connection hears the same error and ends the connection.
}
