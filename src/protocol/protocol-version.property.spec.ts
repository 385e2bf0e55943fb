import fc from 'fast-check';
import {
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  supportsBatching,
  supportsSsePolling,
} from './protocol-version.js';

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** Dates shaped like revisions, spoken ones, near misses, and anything at all. */
const versionLike = fc.oneof(
  fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS),
  fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS).map((version) => ` ${version}`),
  fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS).map((version) => version.toUpperCase() + '\u0000'),
  fc
    .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10)),
  fc.string({ unit: codeUnit, maxLength: 12 }),
);
const anyValue = fc.oneof(versionLike, fc.anything({ maxDepth: 2 }));

describe('protocol version properties', () => {
  it('the version predicates never throw, and no value is both legacy and modern', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(isLegacyProtocolVersion(value) && isModernProtocolVersion(value)).toBe(false);
        expect(isLegacyProtocolVersion(value)).toBe((LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(value));
        expect(isModernProtocolVersion(value)).toBe((MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(value));
      }),
      { numRuns: 200 },
    );
  });

  it('negotiation always answers a legacy version: the one asked for when spoken, else the latest', () => {
    fc.assert(
      fc.property(anyValue, (requested) => {
        const negotiated = negotiateProtocolVersion(requested);
        expect(isLegacyProtocolVersion(negotiated)).toBe(true);
        expect(negotiated).toBe(isLegacyProtocolVersion(requested) ? requested : LATEST_LEGACY_PROTOCOL_VERSION);
      }),
      { numRuns: 200 },
    );
  });

  it('only 2025-03-26 batches, and SSE polling is monotonic in the revision date', () => {
    const date = fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((value) => value.toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.oneof(versionLike, date), date, (version, later) => {
        expect(supportsBatching(version)).toBe(version === '2025-03-26');
        if (supportsSsePolling(version) && later >= version) expect(supportsSsePolling(later)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
