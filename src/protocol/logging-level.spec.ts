import { isLoggingLevel, LOGGING_LEVELS, passesThreshold, type LoggingLevel } from './logging-level.js';

/** RFC 5424 severities as MCP spells them, least severe first: written out, not derived from the code under test. */
const ORDER: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

describe('LOGGING_LEVELS', () => {
  it('lists the eight MCP levels, least severe first', () => {
    expect([...LOGGING_LEVELS]).toEqual(ORDER);
  });
});

describe('isLoggingLevel', () => {
  it.each(ORDER)('accepts %p', (level) => {
    expect(isLoggingLevel(level)).toBe(true);
  });

  it.each([
    'DEBUG',
    'Info',
    'warn',
    'err',
    'fatal',
    'trace',
    ' info',
    'info ',
    '',
    'toString',
    '__proto__',
    'constructor',
    0,
    7,
    null,
    undefined,
    true,
    {},
    ['info'],
  ])('refuses %p', (value) => {
    expect(isLoggingLevel(value)).toBe(false);
  });
});

describe('passesThreshold', () => {
  it.each(ORDER.flatMap((level, li) => ORDER.map((threshold, ti) => [level, threshold, li >= ti] as const)))(
    'a %p message against a %p threshold passes: %p',
    (level, threshold, expected) => {
      expect(passesThreshold(level, threshold)).toBe(expected);
    },
  );

  it('lets everything through at debug and only emergency at emergency', () => {
    expect(ORDER.filter((level) => passesThreshold(level, 'debug'))).toEqual(ORDER);
    expect(ORDER.filter((level) => passesThreshold(level, 'emergency'))).toEqual(['emergency']);
    expect(ORDER.filter((level) => passesThreshold(level, 'warning'))).toEqual([
      'warning',
      'error',
      'critical',
      'alert',
      'emergency',
    ]);
  });
});
