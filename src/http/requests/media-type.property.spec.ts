import fc from 'fast-check';
import { acceptedTypes, isJsonContentType } from './media-type.js';
import { MediaTypeVerdicts } from './media-type-verdicts.js';

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** One media range with parameters, as clients write them (spaces, case and q values included). */
const range = fc
  .tuple(
    fc.constantFrom(
      'application/json',
      'text/event-stream',
      'application/*',
      'text/*',
      '*/*',
      'text/html',
      'application/json-seq',
      '*/json',
      '',
      '/',
    ),
    fc.array(fc.constantFrom('q=0', 'q=0.0', 'q=0.5', 'q=1', 'Q=0', 'q = 0', 'q=', 'charset=utf-8', 'level=1', '='), {
      maxLength: 2,
    }),
    fc.constantFrom('', ' ', '  '),
  )
  .map(([type, params, space]) => [`${space}${type}`, ...params].join(`${space};`));
const accept = fc.array(range, { maxLength: 6 });
const ascii = fc.string({ unit: 'binary-ascii', maxLength: 60 });

describe('media type properties', () => {
  it('acceptedTypes and isJsonContentType never throw on any header text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: codeUnit, maxLength: 60 }),
          ascii,
          accept.map((list) => list.join(',')),
        ),
        (header) => {
          const { json, eventStream } = acceptedTypes(header);
          expect(typeof json).toBe('boolean');
          expect(typeof eventStream).toBe('boolean');
          expect(typeof isJsonContentType(header)).toBe('boolean');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the verdict on an Accept header does not depend on the order of its ranges', () => {
    fc.assert(
      fc.property(
        accept.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length }))),
        ([list, shuffled]) => {
          expect(acceptedTypes(shuffled.join(','))).toStrictEqual(acceptedTypes(list.join(',')));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('media types and parameter names are read without case', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          accept.map((list) => list.join(',')),
          ascii,
        ),
        (header) => {
          expect(acceptedTypes(header.toUpperCase())).toStrictEqual(acceptedTypes(header.toLowerCase()));
          expect(isJsonContentType(header.toUpperCase())).toBe(isJsonContentType(header.toLowerCase()));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an exact range without q=0 allows its type, whatever else the header says', () => {
    fc.assert(
      fc.property(accept, fc.nat(), fc.boolean(), (list, at, json) => {
        const exact = json ? 'application/json' : 'text/event-stream';
        const header = [...list.slice(0, at % (list.length + 1)), exact, ...list.slice(at % (list.length + 1))].join(
          ',',
        );
        const verdict = acceptedTypes(header);
        expect(json ? verdict.json : verdict.eventStream).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('a type that no range names, even by a wildcard, is never allowed', () => {
    fc.assert(
      fc.property(accept, (list) => {
        const header = list.join(',');
        const verdict = acceptedTypes(header);
        const ranges = list.map((entry) => entry.split(';')[0]!.trim().toLowerCase());
        if (!ranges.some((r) => ['application/json', 'application/*', '*/*'].includes(r)))
          expect(verdict.json).toBe(false);
        if (!ranges.some((r) => ['text/event-stream', 'text/*', '*/*'].includes(r)))
          expect(verdict.eventStream).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('a JSON Content-Type is application/json with no charset but UTF-8', () => {
    const param = fc.constantFrom(
      'charset=utf-8',
      'charset="UTF-8"',
      'charset=latin1',
      'charset=utf-16',
      'boundary=x',
      'charset=',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('application/json', ' Application/JSON ', 'text/json', 'application/json+x'),
        fc.array(param, { maxLength: 3 }),
        (type, params) => {
          const header = [type, ...params].join(';');
          const utf8Only = params.every((p) => !p.startsWith('charset') || /^charset="?utf-8"?$/i.test(p));
          expect(isJsonContentType(header)).toBe(type.trim().toLowerCase() === 'application/json' && utf8Only);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the memoised verdicts are the verdicts, however many distinct headers come', () => {
    const verdicts = new MediaTypeVerdicts();
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            accept.map((list) => list.join(',')),
            ascii,
          ),
          { maxLength: 80 },
        ),
        (headers) => {
          for (const header of headers) {
            expect(verdicts.accepted(header)).toStrictEqual(acceptedTypes(header));
            expect(verdicts.isJson(header)).toBe(isJsonContentType(header));
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
