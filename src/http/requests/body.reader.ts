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
  if (size === 0 || raw.destroyed || raw.readableFlowing === true) return undefined;
  // A declared length is waited for whole (a stream that ended short is not taken as the body); a
  // chunked body once the parser has seen its end.
  if (Number.isNaN(declared) ? !(raw.complete && size <= limit) : size !== declared) return undefined;
  const chunk = raw.read() as Buffer | string | null;
  if (chunk === null) return undefined;
  // Resumed, the stream goes on to its end and emits 'end', as it does after a streamed read.
  raw.resume();
  return { ok: true, body: decodeBody(typeof chunk === 'string' ? chunk : chunk.toString('utf8')), preParsed: false };
}

function fromParsed(parsed: unknown): BodyResult {
  if (typeof parsed === 'string') return { ok: true, body: decodeBody(parsed), preParsed: true };
  if (Buffer.isBuffer(parsed)) return { ok: true, body: decodeBody(parsed.toString('utf8')), preParsed: true };
  // A parser that found no body leaves `{}` or undefined; either way there is no JSON-RPC message.
  return { ok: true, body: parsed === undefined ? decodeBody('') : decodeValue(parsed), preParsed: true };
}

function readStream(raw: IncomingMessage, limit: number, idleMs: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
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
    const onData = (chunk: Buffer): void => {
      idle.refresh();
      size += chunk.length;
      if (size > limit) {
        // Stop buffering; the 413 response closes the connection, which discards the rest.
        raw.pause();
        finish(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      finish({ ok: true, body: decodeBody(text), preParsed: false });
    };
    const onAbort = (): void => finish(ABORTED);
    raw.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}
