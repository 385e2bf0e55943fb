import fc from 'fast-check';
import {
  formatEventId,
  parseEventId,
  postStreamId,
  postStreamNumber,
  STANDALONE_STREAM_ID,
  streamProducer,
} from './event-id.js';

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** An instance id as shared state writes it: 12 of [0-9a-z]. */
const replicaId = fc.string({
  unit: fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyz'),
  minLength: 12,
  maxLength: 12,
});
const streamNumber = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));
const streamId = fc.oneof(
  fc.constant(STANDALONE_STREAM_ID),
  streamNumber.map((n) => postStreamId(n)),
  fc.tuple(streamNumber, replicaId).map(([n, replica]) => postStreamId(n, replica)),
);
const seq = fc.oneof(fc.nat({ max: 10_000 }), fc.maxSafeNat());
/** Text shaped like event ids, and near misses: signs, exponents, leading zeros, long numbers, case, spaces. */
const idLike = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom('g', 'p', 'P', '-', '.', '0', '1', '9', 'e', '+', ' ', 'a', 'z', '\n', '٣'),
    maxLength: 30,
  }),
  fc
    .tuple(streamId, fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 20 }))
    .map(([stream, digits]) => `${stream}-${digits}`),
);

describe('event id properties', () => {
  it('parse(format(stream, seq)) round-trips every stream id (tagged ones included) and every safe seq', () => {
    fc.assert(
      fc.property(streamId, seq, (stream, position) => {
        expect(parseEventId(formatEventId(stream, position))).toStrictEqual({ streamId: stream, seq: position });
      }),
      { numRuns: 200 },
    );
  });

  it('parseEventId never throws: it gives undefined, or a safe seq and an id it formats back to the very text', () => {
    fc.assert(
      fc.property(idLike, (text) => {
        const parsed = parseEventId(text);
        if (parsed === undefined) return;
        expect(Number.isSafeInteger(parsed.seq) && parsed.seq >= 0).toBe(true);
        expect(formatEventId(parsed.streamId, parsed.seq)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('a parsed POST stream names its number and producer as postStreamId wrote them', () => {
    fc.assert(
      fc.property(streamNumber, fc.option(replicaId, { nil: undefined }), seq, (n, replica, position) => {
        const parsed = parseEventId(formatEventId(postStreamId(n, replica), position))!;
        expect(postStreamNumber(parsed.streamId)).toBe(n);
        expect(streamProducer(parsed.streamId)).toBe(replica);
      }),
      { numRuns: 200 },
    );
  });

  it('a seq past the safe integers is never read', () => {
    fc.assert(
      fc.property(
        streamId,
        fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER) + 1n, max: 10n ** 17n }),
        (stream, big) => {
          expect(parseEventId(`${stream}-${big}`)).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });
});
