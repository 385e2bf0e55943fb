import { createDecipheriv } from 'node:crypto';
import { MIN_SECRET_BYTES, Sealer } from './sealer.js';
import { thrownBy } from '../../test/utils/thrown.js';

const SECRET = 'a deployment secret of 32 bytes+';
const OTHER_SECRET = 'another secret, also 32 bytes ok';

/** Version byte, 12 bytes of IV, 16 bytes of tag. */
const OVERHEAD_BYTES = 1 + 12 + 16;

const bytesOf = (sealed: string): Buffer => Buffer.from(sealed, 'base64url');
const textOf = (bytes: Buffer): string => bytes.toString('base64url');

describe('Sealer.fromSecret', () => {
  it('wants at least 32 bytes', () => {
    expect(MIN_SECRET_BYTES).toBe(32);
    expect(Buffer.byteLength(SECRET)).toBe(32);
    expect(() => Sealer.fromSecret(SECRET)).not.toThrow();
  });

  it.each([
    ['an empty string', '', 0],
    ['31 ASCII characters', 'x'.repeat(31), 31],
    ['15 two-byte characters and one more', 'é'.repeat(15) + 'a', 31],
    ['31 bytes', new Uint8Array(31), 31],
    ['no bytes', new Uint8Array(0), 0],
  ])('refuses %s', (_label, secret, length) => {
    const error = thrownBy(() => Sealer.fromSecret(secret));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe(`the secret must have at least 32 bytes, got ${length}`);
  });

  it('counts the bytes of a string, not its characters', () => {
    expect(() => Sealer.fromSecret('é'.repeat(16))).not.toThrow();
  });

  it('accepts 32 raw bytes', () => {
    expect(() => Sealer.fromSecret(new Uint8Array(32).fill(7))).not.toThrow();
  });

  it('makes a sealer that is not ephemeral', () => {
    expect(Sealer.fromSecret(SECRET).ephemeral).toBe(false);
  });

  it('copies the secret: changing the array afterwards changes nothing', () => {
    const bytes = new Uint8Array(32).fill(1);
    const sealer = Sealer.fromSecret(bytes);
    const sealed = sealer.seal('p', 'v');
    bytes.fill(2);
    expect(sealer.open('p', sealed)).toBe('v');
    expect(Sealer.fromSecret(new Uint8Array(32).fill(1)).open('p', sealed)).toBe('v');
  });
});

describe('Sealer.fromSecret with several secrets (rotation)', () => {
  const NEW_SECRET = 'the new secret, put first: 32 b+';
  const rotated = (): Sealer => Sealer.fromSecret([NEW_SECRET, SECRET]);

  it('opens what the old secret sealed', () => {
    const sealed = Sealer.fromSecret(SECRET).seal('p', { from: 'old' });
    expect(rotated().open('p', sealed)).toStrictEqual({ from: 'old' });
  });

  it('seals with the first: the new secret alone opens it, the old one alone does not', () => {
    const sealed = rotated().seal('p', { from: 'rotated' });
    expect(Sealer.fromSecret(NEW_SECRET).open('p', sealed)).toStrictEqual({ from: 'rotated' });
    expect(Sealer.fromSecret(SECRET).open('p', sealed)).toBeUndefined();
    expect(rotated().key('p').equals(Sealer.fromSecret(NEW_SECRET).key('p'))).toBe(true);
  });

  it('derives a key per secret, the sealing one first', () => {
    const keys = rotated().keysOf('cursor');
    expect(keys).toHaveLength(2);
    expect(keys[0]!.equals(Sealer.fromSecret(NEW_SECRET).key('cursor'))).toBe(true);
    expect(keys[1]!.equals(Sealer.fromSecret(SECRET).key('cursor'))).toBe(true);
  });

  it('still opens nothing of another purpose or of a secret it was not given', () => {
    expect(rotated().open('q', Sealer.fromSecret(SECRET).seal('p', 1))).toBeUndefined();
    expect(rotated().open('p', Sealer.fromSecret(OTHER_SECRET).seal('p', 1))).toBeUndefined();
  });

  it('refuses an empty list', () => {
    const error = thrownBy(() => Sealer.fromSecret([]));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe('at least one secret is needed');
  });

  it('refuses a list with a short secret anywhere in it', () => {
    for (const secrets of [
      [SECRET, 'x'.repeat(31)],
      [new Uint8Array(31), SECRET],
    ]) {
      const error = thrownBy(() => Sealer.fromSecret(secrets));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toBe('the secret must have at least 32 bytes, got 31');
    }
  });
});

describe('Sealer.ephemeral', () => {
  it('is ephemeral, and no other sealer opens its seals', () => {
    const sealer = Sealer.ephemeral();
    expect(sealer.ephemeral).toBe(true);
    const sealed = sealer.seal('p', { a: 1 });
    expect(sealer.open('p', sealed)).toStrictEqual({ a: 1 });
    expect(Sealer.ephemeral().open('p', sealed)).toBeUndefined();
  });
});

describe('Sealer.key', () => {
  const sealer = Sealer.fromSecret(SECRET);

  it('is 32 bytes, the same every time for a purpose', () => {
    const key = sealer.key('request-state');
    expect(key).toHaveLength(32);
    expect(sealer.key('request-state').equals(key)).toBe(true);
    expect(Sealer.fromSecret(SECRET).key('request-state').equals(key)).toBe(true);
  });

  it('differs per purpose and per secret', () => {
    expect(sealer.key('request-state').equals(sealer.key('cursor'))).toBe(false);
    expect(sealer.key('request-state').equals(Sealer.fromSecret(OTHER_SECRET).key('request-state'))).toBe(false);
  });

  it('is not the secret itself', () => {
    expect(sealer.key('x').equals(Buffer.from(SECRET))).toBe(false);
  });
});

describe('Sealer.seal and open', () => {
  const sealer = Sealer.fromSecret(SECRET);

  it.each([
    ['an object', { a: 1, b: [true, null, 'x'], c: { d: 'é🙂' } }],
    ['an array', [1, 2, 3]],
    ['a string', 'hello'],
    ['an empty string', ''],
    ['a number', 3.25],
    ['null', null],
    ['false', false],
    ['an empty object', {}],
  ])('round-trips %s', (_label, value) => {
    expect(sealer.open('purpose', sealer.seal('purpose', value))).toStrictEqual(value);
  });

  it('round-trips what JSON makes of a value (JSON in, JSON out)', () => {
    expect(sealer.open('p', sealer.seal('p', { at: new Date(0), gone: undefined }))).toStrictEqual({
      at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('writes base64url text without padding', () => {
    for (let i = 0; i < 20; i++) expect(sealer.seal('p', 'x'.repeat(i))).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('hides the value: the plain text does not appear in the seal', () => {
    const sealed = sealer.seal('p', { secret: 'plain-text-marker' });
    expect(bytesOf(sealed).includes(Buffer.from('plain-text-marker'))).toBe(false);
  });

  it('seals the same value differently every time, and both open', () => {
    const first = sealer.seal('p', { a: 1 });
    const second = sealer.seal('p', { a: 1 });
    expect(first).not.toBe(second);
    expect(sealer.open('p', first)).toStrictEqual({ a: 1 });
    expect(sealer.open('p', second)).toStrictEqual({ a: 1 });
  });

  it('starts with version 1 and costs 29 bytes beside the JSON', () => {
    const bytes = bytesOf(sealer.seal('p', { a: 1 }));
    expect(bytes[0]).toBe(1);
    expect(bytes.length).toBe(OVERHEAD_BYTES + Buffer.byteLength('{"a":1}'));
  });

  it('opens the seals of another sealer holding the same secret (another instance)', () => {
    const sealed = Sealer.fromSecret(SECRET).seal('p', ['shared']);
    expect(Sealer.fromSecret(SECRET).open('p', sealed)).toStrictEqual(['shared']);
    expect(Sealer.fromSecret(Buffer.from(SECRET)).open('p', sealed)).toStrictEqual(['shared']);
  });

  it('does not open the seal of another purpose', () => {
    const sealed = sealer.seal('cursor', { a: 1 });
    expect(sealer.open('request-state', sealed)).toBeUndefined();
    expect(sealer.open('cursor', sealed)).toStrictEqual({ a: 1 });
  });

  it('does not open the seal of another secret', () => {
    const sealed = Sealer.fromSecret(OTHER_SECRET).seal('p', { a: 1 });
    expect(sealer.open('p', sealed)).toBeUndefined();
  });

  it('opens nothing once any byte is altered', () => {
    const sealed = sealer.seal('p', { user: 'alice', round: 1 });
    const bytes = bytesOf(sealed);
    for (let i = 0; i < bytes.length; i++) {
      for (const mask of [0x01, 0x80]) {
        const altered = Buffer.from(bytes);
        altered[i] ^= mask;
        expect(sealer.open('p', textOf(altered))).toBeUndefined();
      }
    }
    expect(sealer.open('p', sealed)).toStrictEqual({ user: 'alice', round: 1 });
  });

  it('opens nothing truncated or extended', () => {
    const sealed = sealer.seal('p', { a: 1 });
    const bytes = bytesOf(sealed);
    for (const cut of [1, 2, 16, bytes.length - OVERHEAD_BYTES, bytes.length - 1]) {
      expect(sealer.open('p', textOf(bytes.subarray(0, bytes.length - cut)))).toBeUndefined();
    }
    expect(sealer.open('p', textOf(bytes.subarray(1)))).toBeUndefined();
    expect(sealer.open('p', textOf(Buffer.concat([bytes, Buffer.of(0)])))).toBeUndefined();
    expect(sealer.open('p', sealed.slice(0, -1))).toBeUndefined();
  });

  it('opens nothing shorter than the version, IV and tag', () => {
    expect(sealer.open('p', textOf(Buffer.alloc(OVERHEAD_BYTES - 1, 1)))).toBeUndefined();
    expect(sealer.open('p', textOf(Buffer.concat([Buffer.of(1), Buffer.alloc(OVERHEAD_BYTES - 1)])))).toBeUndefined();
  });

  it('opens nothing with another version byte, even with a tag that would check out otherwise', () => {
    const bytes = bytesOf(sealer.seal('p', 'v'));
    for (const version of [0, 2, 255]) {
      const altered = Buffer.from(bytes);
      altered[0] = version;
      expect(sealer.open('p', textOf(altered))).toBeUndefined();
    }
  });

  it('authenticates the version byte: the tag checks out only with it as additional data', () => {
    // open() also refuses other version bytes outright; this shows the tag itself covers the byte,
    // so a later format cannot be passed off as this one (or the reverse) with the rest intact.
    const bytes = bytesOf(sealer.seal('p', 'v'));
    const iv = bytes.subarray(1, 13);
    const body = bytes.subarray(13, bytes.length - 16);
    const tag = bytes.subarray(bytes.length - 16);
    const decrypt = (aad: Buffer | undefined): string | undefined => {
      const decipher = createDecipheriv('aes-256-gcm', sealer.key('p'), iv);
      if (aad) decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    };
    expect(decrypt(Buffer.of(1))).toBe('"v"');
    expect(decrypt(undefined)).toBeUndefined();
    expect(decrypt(Buffer.of(2))).toBeUndefined();
  });

  it.each([
    ['empty text', ''],
    ['punctuation', '!!!!'],
    ['a space', 'a b'],
    ['plain words', 'not-a-seal-at-all-but-long-enough-to-pass-the-length-check'],
  ])('opens nothing from %s', (_label, text) => {
    expect(sealer.open('p', text)).toBeUndefined();
  });

  it('opens nothing written in another spelling of the same bytes', () => {
    // 29 + 8 bytes: the standard spelling needs padding.
    const sealed = sealer.seal('p', { a: 12 });
    // Padding, standard base64, and stray characters that a lenient decoder skips.
    const padded = bytesOf(sealed).toString('base64');
    expect(padded).not.toBe(sealed);
    expect(sealer.open('p', padded)).toBeUndefined();
    expect(sealer.open('p', `${sealed}=`)).toBeUndefined();
    expect(sealer.open('p', `${sealed}==`)).toBeUndefined();
    expect(sealer.open('p', ` ${sealed}`)).toBeUndefined();
    expect(sealer.open('p', `${sealed.slice(0, 10)}.${sealed.slice(10)}`)).toBeUndefined();
    expect(sealer.open('p', `${sealed}\n`)).toBeUndefined();
  });
});
