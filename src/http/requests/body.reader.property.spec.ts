import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import fc from 'fast-check';
import { decodeBody, decodeValue } from '../../protocol/json-rpc.codec.js';
import { readMcpBody, type BodyResult } from './body.reader.js';

/** A real IncomingMessage whose body the test feeds chunk by chunk. */
function incoming(headers: Record<string, string> = {}): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.headers = headers;
  return message;
}

/** Bytes cut into chunks at arbitrary places (inside multi-byte UTF-8 sequences too). */
const chunked = fc
  .tuple(
    fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.jsonValue({ maxDepth: 2 }).map((params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm', params })),
    ),
    fc.array(fc.nat(), { maxLength: 6 }),
  )
  .map(([text, cuts]) => {
    const bytes = Buffer.from(text, 'utf8');
    const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
    const chunks = [0, ...at].map((start, index) => bytes.subarray(start, [...at, bytes.length][index]));
    return { text, bytes, chunks };
  });

describe('body reader properties', () => {
  it('however the bytes are chunked, the body decodes as its whole text does, or is too large past the limit', async () => {
    await fc.assert(
      fc.asyncProperty(chunked, fc.integer({ min: 0, max: 200 }), async ({ text, bytes, chunks }, limit) => {
        const raw = incoming();
        const pending = readMcpBody(raw, raw, limit, 30_000);
        for (const chunk of chunks) raw.push(chunk);
        raw.push(null);
        const result = await pending;
        if (bytes.length > limit) expect(result).toStrictEqual({ ok: false, reason: 'too-large' });
        else expect(result).toStrictEqual({ ok: true, body: decodeBody(text), preParsed: false });
      }),
      { numRuns: 150 },
    );
  });

  it('a declared Content-Length past the limit is too large before a byte is read', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000 }), fc.nat({ max: 10_000 }), (limit, extra) => {
        const raw = incoming({ 'content-length': String(limit + extra + 1) });
        expect(readMcpBody(raw, raw, limit, 30_000)).toStrictEqual({ ok: false, reason: 'too-large' });
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on whatever a host body parser left, and decodes it as the codec does', () => {
    const parsed = fc
      .oneof(
        fc.string({ maxLength: 40 }),
        fc.json({ maxDepth: 2 }),
        fc.json({ maxDepth: 2 }).map((text) => Buffer.from(text)),
        fc.anything({ maxDepth: 3, withBoxedValues: true, withMap: true, withNullPrototype: true }),
      )
      .filter((body) => body !== undefined); // undefined: no parser ran, the stream is read
    fc.assert(
      fc.property(parsed, (body) => {
        const raw = incoming();
        const result = readMcpBody({ body }, raw, 1024, 30_000) as BodyResult;
        const expected =
          typeof body === 'string'
            ? decodeBody(body)
            : Buffer.isBuffer(body)
              ? decodeBody(body.toString('utf8'))
              : decodeValue(body);
        expect(result).toStrictEqual({ ok: true, body: expected, preParsed: true });
      }),
      { numRuns: 200 },
    );
  });
});
