import fc from 'fast-check';
import { isLoggingLevel, LOGGING_LEVELS, passesThreshold, type LoggingLevel } from './logging-level.js';

const level = fc.constantFrom(...LOGGING_LEVELS);
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

describe('logging level properties', () => {
  it('isLoggingLevel never throws, and names exactly the eight levels', () => {
    const anyValue = fc.oneof(
      level,
      level.map((name) => name.toUpperCase()),
      level.map((name) => `${name} `),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty'),
      fc.string({ unit: codeUnit, maxLength: 12 }),
      fc.anything({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(isLoggingLevel(value)).toBe((LOGGING_LEVELS as readonly unknown[]).includes(value));
      }),
      { numRuns: 200 },
    );
  });

  it('passesThreshold is a total order: reflexive, antisymmetric, transitive, and following the list', () => {
    fc.assert(
      fc.property(level, level, level, (a: LoggingLevel, b: LoggingLevel, c: LoggingLevel) => {
        expect(passesThreshold(a, a)).toBe(true);
        expect(passesThreshold(a, b) || passesThreshold(b, a)).toBe(true);
        if (passesThreshold(a, b) && passesThreshold(b, a)) expect(a).toBe(b);
        if (passesThreshold(a, b) && passesThreshold(b, c)) expect(passesThreshold(a, c)).toBe(true);
        expect(passesThreshold(a, b)).toBe(LOGGING_LEVELS.indexOf(a) >= LOGGING_LEVELS.indexOf(b));
      }),
      { numRuns: 200 },
    );
  });
});
