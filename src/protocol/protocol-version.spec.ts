import {
  DEFAULT_HEADER_PROTOCOL_VERSION,
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  supportsBatching,
} from './protocol-version.js';

const EXPECTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

describe('the versions spoken', () => {
  it('are the modern 2026-07-28, then the legacy ones, each list newest first', () => {
    expect([...MODERN_PROTOCOL_VERSIONS]).toEqual(['2026-07-28']);
    expect([...LEGACY_PROTOCOL_VERSIONS]).toEqual(EXPECTED_VERSIONS);
    expect([...SUPPORTED_PROTOCOL_VERSIONS]).toEqual(['2026-07-28', ...EXPECTED_VERSIONS]);
  });

  it('are sorted strictly descending, without repeats', () => {
    const sorted = [...SUPPORTED_PROTOCOL_VERSIONS].sort().reverse();
    expect([...SUPPORTED_PROTOCOL_VERSIONS]).toEqual(sorted);
    expect(new Set(SUPPORTED_PROTOCOL_VERSIONS).size).toBe(SUPPORTED_PROTOCOL_VERSIONS.length);
  });

  it('have the newest as LATEST_PROTOCOL_VERSION, and the newest legacy one apart', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(LATEST_LEGACY_PROTOCOL_VERSION).toBe('2025-11-25');
  });
});

describe('DEFAULT_HEADER_PROTOCOL_VERSION', () => {
  it('is 2025-03-26, as the Streamable HTTP transport prescribes', () => {
    expect(DEFAULT_HEADER_PROTOCOL_VERSION).toBe('2025-03-26');
    expect(isLegacyProtocolVersion(DEFAULT_HEADER_PROTOCOL_VERSION)).toBe(true);
  });
});

describe('isLegacyProtocolVersion', () => {
  it.each(EXPECTED_VERSIONS)('accepts %s', (version) => {
    expect(isLegacyProtocolVersion(version)).toBe(true);
  });

  it.each([
    '',
    '2026-07-28',
    '2024-11-04',
    '2025-11-26',
    '2025-11-25 ',
    ' 2025-11-25',
    '2025-11-25\n',
    '2025/11/25',
    '20251125',
    'latest',
    'DRAFT-2026-v1',
    '2.0',
  ])('rejects the string %p', (version) => {
    expect(isLegacyProtocolVersion(version)).toBe(false);
  });

  it.each([undefined, null, 20251125, true, {}, ['2025-11-25'], { toString: () => '2025-11-25' }])(
    'rejects the non-string %p',
    (version) => {
      expect(isLegacyProtocolVersion(version)).toBe(false);
    },
  );
});

describe('isModernProtocolVersion', () => {
  it('accepts 2026-07-28', () => {
    expect(isModernProtocolVersion('2026-07-28')).toBe(true);
  });

  it.each([...EXPECTED_VERSIONS, '', 'v999.0.0', '2026-07-28 ', '2026-07-29', undefined, 20260728, ['2026-07-28']])(
    'rejects %p',
    (version) => {
      expect(isModernProtocolVersion(version)).toBe(false);
    },
  );
});

describe('negotiateProtocolVersion', () => {
  it.each(EXPECTED_VERSIONS)('echoes the supported version %s', (version) => {
    expect(negotiateProtocolVersion(version)).toBe(version);
  });

  it.each(['2099-01-01', '2026-07-28', '2024-01-01', '', 'garbage', '2025-11-25 ', '2025-06-18T00:00:00Z'])(
    'answers the unknown version %p with the latest',
    (version) => {
      expect(negotiateProtocolVersion(version)).toBe('2025-11-25');
    },
  );

  it.each([undefined, null, 0, 20250618, false, {}, ['2025-06-18'], new String('2025-06-18')])(
    'answers the non-string %p with the latest',
    (version) => {
      expect(negotiateProtocolVersion(version)).toBe('2025-11-25');
    },
  );
});

describe('supportsBatching', () => {
  it('is true for 2025-03-26 only', () => {
    expect(supportsBatching('2025-03-26')).toBe(true);
  });

  it.each(['2025-11-25', '2025-06-18', '2024-11-05', '2024-10-07', '', '2025-03-26 ', 'unknown'])(
    'is false for %p',
    (version) => {
      expect(supportsBatching(version)).toBe(false);
    },
  );

  it('holds for exactly one supported version', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS.filter(supportsBatching)).toEqual(['2025-03-26']);
  });
});
