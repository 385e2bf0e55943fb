import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { CursorSeal } from './cursor-seal.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** Cursors as pagination writes them (base64url), and any other non-empty text of whole code points. */
const cursor = fc.oneof(
  fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 60 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
);
/** Scopes as the server writes them: `<list>\0<session or principal>`. */
const scope = fc
  .tuple(fc.constantFrom('tools', 'prompts', 'resources', 'resourceTemplates'), fc.string({ maxLength: 20 }))
  .map(([list, owner]) => `${list}\0${owner}`);
const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes));

/** What `open` threw: the one -32602 for every refusal, or the cursor when it opened. */
function opened(seal: CursorSeal, sealed: string, within: string): string | JsonRpcError {
  try {
    return seal.open(sealed, within);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
    expect((error as JsonRpcError).message).toBe('Invalid params: invalid cursor');
    return error as JsonRpcError;
  }
}

describe('CursorSeal properties', () => {
  const seal = new CursorSeal([randomBytes(32)]);

  it('open(seal(c)) round-trips any non-empty cursor, in any scope', () => {
    fc.assert(
      fc.property(cursor, scope, (c, s) => {
        expect(seal.open(seal.seal(c, s), s)).toBe(c);
      }),
      { numRuns: 200 },
    );
  });

  it('open throws nothing but -32602 on any text, and opens none of it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: codeUnit, maxLength: 60 }),
          fc
            .tuple(cursor, fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 30 }))
            .map(([c, tag]) => `${c}.${tag}`),
        ),
        scope,
        (sealed, s) => {
          expect(opened(seal, sealed, s)).toBeInstanceOf(JsonRpcError);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a cursor sealed for one scope never opens in another', () => {
    fc.assert(
      fc.property(cursor, scope, scope, (c, s, other) => {
        fc.pre(s !== other);
        expect(opened(seal, seal.seal(c, s), other)).toBeInstanceOf(JsonRpcError);
      }),
      { numRuns: 200 },
    );
  });

  it('a cursor sealed with one key never opens with another, and rotation opens it with any key of the list', () => {
    fc.assert(
      fc.property(cursor, scope, key, key, (c, s, a, b) => {
        fc.pre(!a.equals(b));
        const sealed = new CursorSeal([a]).seal(c, s);
        expect(opened(new CursorSeal([b]), sealed, s)).toBeInstanceOf(JsonRpcError);
        expect(new CursorSeal([b, a]).open(sealed, s)).toBe(c);
        expect(new CursorSeal([b, a]).seal(c, s)).toBe(new CursorSeal([b]).seal(c, s));
      }),
      { numRuns: 200 },
    );
  });

  it('any change to the cursor part of a sealed cursor never opens', () => {
    fc.assert(
      fc.property(cursor, scope, fc.nat(), fc.constantFrom(...BASE64URL), (c, s, at, char) => {
        const sealed = seal.seal(c, s);
        const i = at % c.length;
        fc.pre(c[i] !== char);
        const forged = sealed.slice(0, i) + char + sealed.slice(i + 1);
        expect(opened(seal, forged, s)).toBeInstanceOf(JsonRpcError);
      }),
      { numRuns: 200 },
    );
  });

  it('a tag that decodes to other bytes never opens', () => {
    fc.assert(
      fc.property(cursor, scope, fc.nat(), fc.integer({ min: 0, max: 7 }), (c, s, at, bit) => {
        const sealed = seal.seal(c, s);
        const dot = sealed.lastIndexOf('.');
        const tag = Buffer.from(sealed.slice(dot + 1), 'base64url');
        tag[at % tag.length]! ^= 1 << bit;
        expect(opened(seal, `${sealed.slice(0, dot)}.${tag.toString('base64url')}`, s)).toBeInstanceOf(JsonRpcError);
      }),
      { numRuns: 200 },
    );
  });

  // Node's base64url decoder is lenient: padding, stray characters and spare bits must not open.
  it('any other spelling of a sealed cursor never opens', () => {
    const respell = fc.oneof(
      fc.constantFrom('=', '==', ' ', '!').map((extra) => (tag: string) => tag + extra),
      fc.nat({ max: 21 }).map((at) => (tag: string) => `${tag.slice(0, at)}!${tag.slice(at)}`),
    );
    fc.assert(
      fc.property(cursor, scope, respell, (c, s, edit) => {
        const sealed = seal.seal(c, s);
        const dot = sealed.lastIndexOf('.');
        expect(opened(seal, `${sealed.slice(0, dot)}.${edit(sealed.slice(dot + 1))}`, s)).toBeInstanceOf(JsonRpcError);
      }),
      { numRuns: 50 },
    );
  });
});
