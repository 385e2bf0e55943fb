import type { IncomingMessage } from 'node:http';
import { decodeBody, decodeValue, type DecodedBody } from '../../protocol/json-rpc.codec.js';

/** A POST body, decoded, or why there is none. */
export type BodyResult =
  | {
      readonly ok: true;
      readonly body: DecodedBody;
      /** Whether a host body parser read the stream before us (its limit and errors applied then). */
      readonly preParsed: boolean;
    }
  | { readonly ok: false; readonly reason: 'too-large' | 'aborted' | 'timeout' };

const TOO_LARGE: BodyResult = Object.freeze({ ok: false, reason: 'too-large' });
const ABORTED: BodyResult = Object.freeze({ ok: false, reason: 'aborted' });
const TIMED_OUT: BodyResult = Object.freeze({ ok: false, reason: 'timeout' });

/**
 * Reads and decodes the body of `request` (the framework's request object).
 *
 * When a host body parser already consumed the stream (Nest's default JSON parser, Fastify),
 * its result is used: the limit and error shape are then the parser's. Otherwise the raw stream
 * is read here, stopping as soon as it passes `limit` bytes, or when nothing arrived for `idleMs`
 * (a client that trickles its body, one byte now and then, must not hold the connection for long).
 */
export function readMcpBody(
  request: unknown,
  raw: IncomingMessage,
  limit: number,
  idleMs: number,
): Promise<BodyResult> | BodyResult {
  const parsed = (request as { body?: unknown }).body;
  if (raw.readableEnded || parsed !== undefined) return fromParsed(parsed);
  const declared = Number(raw.headers['content-length']);
  if (declared > limit) return TOO_LARGE;
  // Gone while async guards ran: its 'close' fired already, and the read would wait out `idleMs`.
  if (raw.destroyed && !raw.complete) return ABORTED;
  return readBuffered(raw, declared, limit) ?? readAfterParse(raw, declared, limit, idleMs);
}

/**
 * A route that runs at once (Express's, or Fastify's with no async guard before it) runs while
 * Node's HTTP parser is at the end of the headers: a body that came in the same packets is handed to
 * the stream after them, before the microtasks run. So one turn later such a body waits whole in
 * the stream's buffer, and {@link readBuffered} takes it.
 */
async function readAfterParse(
  raw: IncomingMessage,
  declared: number,
  limit: number,
  idleMs: number,
): Promise<BodyResult> {
  await Promise.resolve();
  // Gone meanwhile: its 'close' fired already, and a streamed read would wait out `idleMs`.
  if (raw.destroyed && !raw.complete) return ABORTED;
  return readBuffered(raw, declared, limit) ?? readStream(raw, limit, idleMs);
}

/**
 * The body at once when all of it waits in the stream's buffer (its declared length, or a chunked
 * body the parser has seen the end of): one `read()`, without the listeners, timer and promise of
 * {@link readStream}. `undefined` while some of it is still to come.
 */
function readBuffered(raw: IncomingMessage, declared: number, limit: number): BodyResult | undefined {
  const size = raw.readableLength;
  // With an encoding set (`setEncoding`), the buffer's length counts characters, not bytes: read as a stream.
  if (size === 0 || raw.destroyed || raw.readableFlowing === true || raw.readableEncoding !== null) return undefined;
  // A declared length is waited for whole (a stream that ended short is not taken as the body); a
  // chunked body once the parser has seen its end.
  if (Number.isNaN(declared) ? !(raw.complete && size <= limit) : size !== declared) return undefined;
  const chunk = raw.read() as Buffer | null;
  if (chunk === null) return undefined;
  // Resumed, the stream goes on to its end and emits 'end', as it does after a streamed read.
  raw.resume();
  return { ok: true, body: decodeBody(chunk.toString('utf8')), preParsed: false };
}

function fromParsed(parsed: unknown): BodyResult {
  if (typeof parsed === 'string') return { ok: true, body: decodeBody(parsed), preParsed: true };
  if (Buffer.isBuffer(parsed)) return { ok: true, body: decodeBody(parsed.toString('utf8')), preParsed: true };
  // A parser that found no body leaves `{}` or undefined; either way there is no JSON-RPC message.
  return { ok: true, body: parsed === undefined ? decodeBody('') : decodeValue(parsed), preParsed: true };
}

function readStream(raw: IncomingMessage, limit: number, idleMs: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    // Strings rather than Buffers when the stream was given an encoding (`setEncoding`): counted and
    // joined as the bytes they stand for.
    const encoding: BufferEncoding = raw.readableEncoding ?? 'utf8';
    const chunks: (Buffer | string)[] = [];
    let size = 0;
    const finish = (result: BodyResult): void => {
      clearTimeout(idle);
      raw.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      resolve(result);
    };
    const idle = setTimeout(() => {
      raw.pause();
      finish(TIMED_OUT);
    }, idleMs);
    const onData = (chunk: Buffer | string): void => {
      idle.refresh();
      size += typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : chunk.length;
      if (size > limit) {
        // Stop buffering; the 413 response closes the connection, which discards the rest.
        raw.pause();
        finish(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: decodeBody(joined(chunks, size, encoding)), preParsed: false });
    const onAbort = (): void => finish(ABORTED);
    raw.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}

/**
 * The body's text from its chunks: Buffers, or strings in `encoding` once the stream was given one
 * (its decoder hands whole characters or units, so UTF-8 strings join as they are and others go back
 * to their bytes).
 */
function joined(chunks: readonly (Buffer | string)[], size: number, encoding: BufferEncoding): string {
  if (isUtf8(encoding) && chunks.every((chunk) => typeof chunk === 'string')) return chunks.join('');
  const buffers = chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk));
  return (buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers, size)).toString('utf8');
}

function isUtf8(encoding: BufferEncoding): boolean {
  return encoding === 'utf8' || encoding === 'utf-8';
}
