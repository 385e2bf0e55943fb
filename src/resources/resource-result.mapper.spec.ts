import { Buffer } from 'node:buffer';
import { toReadResourceResult } from './resource-result.mapper.js';

const URI = 'docs://readme';

describe('toReadResourceResult', () => {
  describe('no resource', () => {
    it.each([undefined, null])('maps %p to undefined (the caller answers -32002)', (value) => {
      expect(toReadResourceResult(value, URI)).toBeUndefined();
      expect(toReadResourceResult(value, URI, 'text/plain')).toBeUndefined();
    });
  });

  describe('a string', () => {
    it('is one text item for the URI read, without a MIME type when none is declared', () => {
      const result = toReadResourceResult('# Hello', URI);
      expect(result).toEqual({ contents: [{ uri: URI, text: '# Hello' }] });
      expect(Object.keys(result!.contents[0]!)).toEqual(['uri', 'text']);
    });

    it('takes the declared MIME type', () => {
      expect(toReadResourceResult('# Hello', URI, 'text/markdown')).toEqual({
        contents: [{ uri: URI, text: '# Hello', mimeType: 'text/markdown' }],
      });
    });

    it('keeps an empty string as empty text (not "no resource")', () => {
      expect(toReadResourceResult('', URI)).toEqual({ contents: [{ uri: URI, text: '' }] });
    });
  });

  describe('bytes', () => {
    it('maps a Buffer to a base64 blob', () => {
      expect(toReadResourceResult(Buffer.from('hello'), URI, 'application/octet-stream')).toEqual({
        contents: [{ uri: URI, blob: 'aGVsbG8=', mimeType: 'application/octet-stream' }],
      });
    });

    it('maps a Uint8Array to a base64 blob', () => {
      expect(toReadResourceResult(new Uint8Array([0, 255, 1]), URI)).toEqual({
        contents: [{ uri: URI, blob: 'AP8B' }],
      });
    });

    it('encodes only the bytes a subarray views, from its byteOffset', () => {
      const whole = new Uint8Array([104, 101, 108, 108, 111, 33]);
      const view = whole.subarray(1, 4);
      expect(view.byteOffset).toBe(1);
      expect(toReadResourceResult(view, URI)).toEqual({
        contents: [{ uri: URI, blob: Buffer.from('ell').toString('base64') }],
      });
    });

    it('encodes a Buffer slice of a shared pool by its own bytes', () => {
      const slice = Buffer.from('0123456789').subarray(3, 6);
      expect(toReadResourceResult(slice, URI)!.contents[0]).toEqual({ uri: URI, blob: 'MzQ1' });
    });

    it('maps empty bytes to an empty blob', () => {
      expect(toReadResourceResult(new Uint8Array(0), URI)).toEqual({ contents: [{ uri: URI, blob: '' }] });
    });
  });

  describe('a contents item', () => {
    it('{ text } takes the URI read and the declared MIME type', () => {
      expect(toReadResourceResult({ text: 'hi' }, URI, 'text/plain')).toEqual({
        contents: [{ uri: URI, text: 'hi', mimeType: 'text/plain' }],
      });
    });

    it('{ text } keeps its own uri and mimeType over the defaults', () => {
      expect(
        toReadResourceResult({ uri: 'docs://other', text: 'hi', mimeType: 'text/x-own' }, URI, 'text/plain'),
      ).toEqual({ contents: [{ uri: 'docs://other', text: 'hi', mimeType: 'text/x-own' }] });
    });

    it('{ blob } keeps a base64 string as it is', () => {
      expect(toReadResourceResult({ blob: 'aGVsbG8=' }, URI, 'application/octet-stream')).toEqual({
        contents: [{ uri: URI, blob: 'aGVsbG8=', mimeType: 'application/octet-stream' }],
      });
    });

    it('{ blob } encodes bytes, a subarray by its own bytes', () => {
      const bytes = new Uint8Array([9, 104, 105, 9]).subarray(1, 3);
      expect(toReadResourceResult({ blob: bytes, mimeType: 'image/png' }, URI)).toEqual({
        contents: [{ uri: URI, blob: 'aGk=', mimeType: 'image/png' }],
      });
    });

    it('keeps _meta when it is an object, drops it otherwise, and drops unknown fields', () => {
      expect(toReadResourceResult({ text: 'hi', _meta: { source: 'cache' }, extra: 1 }, URI)).toEqual({
        contents: [{ uri: URI, text: 'hi', _meta: { source: 'cache' } }],
      });
      expect(toReadResourceResult({ text: 'hi', _meta: 'nope' }, URI)).toEqual({
        contents: [{ uri: URI, text: 'hi' }],
      });
    });

    it('prefers text when both text and blob are given', () => {
      expect(toReadResourceResult({ text: 'hi', blob: 'aGk=' }, URI)).toEqual({ contents: [{ uri: URI, text: 'hi' }] });
    });

    it.each(['aGVsbG8', 'aGV-bG8=', 'aGVsbG8=\n', 'a===', '!!!!'])('refuses the invalid base64 blob %p', (blob) => {
      expect(() => toReadResourceResult({ blob }, URI)).toThrow(
        new RangeError('blob is not standard padded base64: pass the bytes, or encode them with base64'),
      );
    });

    it('refuses a blob that is neither bytes nor a string', () => {
      expect(() => toReadResourceResult({ blob: 12 }, URI)).toThrow(
        new TypeError('blob must be bytes or a base64 string, got number'),
      );
    });

    it.each([
      [{ text: 'hi', uri: '' }, 'contents uri must be a non-empty string'],
      [{ text: 'hi', uri: 42 }, 'contents uri must be a non-empty string'],
      [{ text: 'hi', mimeType: 5 }, 'contents mimeType must be a string'],
    ])('refuses the malformed item %p', (item, message) => {
      expect(() => toReadResourceResult(item, URI)).toThrow(new TypeError(message));
    });
  });

  describe('several items', () => {
    it('maps an array of strings, bytes and items, each defaulted', () => {
      const result = toReadResourceResult(
        ['one', Buffer.from('two'), { text: 'three', uri: 'docs://three' }, { blob: 'Zm91cg==', mimeType: 'x/y' }],
        URI,
        'text/plain',
      );
      expect(result).toEqual({
        contents: [
          { uri: URI, text: 'one', mimeType: 'text/plain' },
          { uri: URI, blob: 'dHdv', mimeType: 'text/plain' },
          { uri: 'docs://three', text: 'three', mimeType: 'text/plain' },
          { uri: URI, blob: 'Zm91cg==', mimeType: 'x/y' },
        ],
      });
    });

    it('refuses an array mixing items with values that are not contents', () => {
      expect(() => toReadResourceResult([{ text: 'a' }, 2], URI)).toThrow(
        new TypeError('each contents item must be a string, bytes, or an object with text or blob'),
      );
      expect(() => toReadResourceResult([{ text: 'a' }, { other: true }], URI)).toThrow(TypeError);
    });

    it('sends an array of plain values (strings included) as one JSON text, not as several contents', () => {
      expect(toReadResourceResult(['Lisbon', 'Oslo'], URI, 'application/json')).toEqual({
        contents: [{ uri: URI, text: '["Lisbon","Oslo"]', mimeType: 'application/json' }],
      });
      expect(toReadResourceResult(['one', 2], URI)).toEqual({
        contents: [{ uri: URI, text: '["one",2]', mimeType: 'application/json' }],
      });
    });

    // An array of bytes only is several blobs, not a JSON value with each Uint8Array as {"0":..}.
    it('maps an array of bytes only to blobs', () => {
      expect(toReadResourceResult([Buffer.from('a'), new Uint8Array([98])], URI)).toEqual({
        contents: [
          { uri: URI, blob: 'YQ==' },
          { uri: URI, blob: 'Yg==' },
        ],
      });
    });
  });

  describe('a result', () => {
    it('{ contents } completes its items and keeps _meta', () => {
      expect(
        toReadResourceResult(
          { contents: ['a', { blob: new Uint8Array([1]) }], _meta: { cached: true } },
          URI,
          'text/plain',
        ),
      ).toEqual({
        contents: [
          { uri: URI, text: 'a', mimeType: 'text/plain' },
          { uri: URI, blob: 'AQ==', mimeType: 'text/plain' },
        ],
        _meta: { cached: true },
      });
    });

    it('{ contents } drops a _meta that is not an object and other fields', () => {
      const result = toReadResourceResult({ contents: [{ text: 'a' }], _meta: [1], other: 1 }, URI);
      expect(result).toEqual({ contents: [{ uri: URI, text: 'a' }] });
      expect(Object.keys(result!)).toEqual(['contents']);
    });

    it('{ contents: [] } is a resource with no contents', () => {
      expect(toReadResourceResult({ contents: [] }, URI)).toEqual({ contents: [] });
    });

    it('{ contents } refuses items that are not contents (no JSON fallback inside)', () => {
      expect(() => toReadResourceResult({ contents: [{ a: 1 }] }, URI)).toThrow(
        new TypeError('each contents item must be a string, bytes, or an object with text or blob'),
      );
    });
  });

  describe('any other JSON value', () => {
    it.each([
      [{ a: 1, b: [true, null] }, '{"a":1,"b":[true,null]}'],
      [[1, 2, 3], '[1,2,3]'],
      [[], '[]'],
      [42, '42'],
      [0, '0'],
      [false, 'false'],
      [{ contents: 'not a list' }, '{"contents":"not a list"}'],
      [{ text: 5 }, '{"text":5}'],
    ])('sends %p as its JSON text, application/json', (value, json) => {
      expect(toReadResourceResult(value, URI)).toEqual({
        contents: [{ uri: URI, text: json, mimeType: 'application/json' }],
      });
    });

    it('uses the declared MIME type over application/json', () => {
      expect(toReadResourceResult({ a: 1 }, URI, 'application/vnd.example+json')).toEqual({
        contents: [{ uri: URI, text: '{"a":1}', mimeType: 'application/vnd.example+json' }],
      });
    });

    it('honours toJSON, as JSON.stringify does', () => {
      expect(toReadResourceResult(new Date('2025-01-02T03:04:05.000Z'), URI)).toEqual({
        contents: [{ uri: URI, text: '"2025-01-02T03:04:05.000Z"', mimeType: 'application/json' }],
      });
    });

    it.each([
      ['function', () => 1],
      ['symbol', Symbol('s')],
    ])('refuses a %s with a TypeError', (type, value) => {
      expect(() => toReadResourceResult(value, URI)).toThrow(new TypeError(`a resource cannot be a ${type}`));
    });

    it('refuses a BigInt with a TypeError', () => {
      expect(() => toReadResourceResult(10n, URI)).toThrow(TypeError);
    });

    it('refuses a circular object with a TypeError', () => {
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      expect(() => toReadResourceResult(circular, URI)).toThrow(TypeError);
    });
  });
});
