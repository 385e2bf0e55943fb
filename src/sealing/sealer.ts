import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The shortest secret accepted: 32 bytes, the key size of what it derives. */
export const MIN_SECRET_BYTES = 32;

/** A secret as the options take it: text or bytes. */
export type SealerSecret = string | Uint8Array;

/**
 * Seals what the server hands to clients and must get back unchanged (MRTR `requestState`, list
 * cursors): AES-256-GCM, so a client can neither read nor alter it, with a key per purpose derived
 * (HKDF-SHA256) from a secret. Instances of a deployment that share the secret open each other's
 * seals; without one, a random key of this process is used, and seals die with it. Secrets can be
 * rotated: seals are made with the first, and open with any of them.
 */
export class Sealer {
  /** Per purpose, the key of each secret, the sealing one first. */
  private readonly keys = new Map<string, readonly Buffer[]>();

  private constructor(
    private readonly secrets: readonly Buffer[],
    /** Whether the secret was made up for this process rather than given. */
    readonly ephemeral: boolean,
  ) {}

  /**
   * A sealer whose seals every holder of the secret can open.
   * @param secrets one secret, or several: the first seals, all open (put a new one first, keep the
   *   old ones until what they sealed has expired).
   * @throws RangeError for no secret, or one shorter than {@link MIN_SECRET_BYTES}.
   */
  static fromSecret(secrets: SealerSecret | readonly SealerSecret[]): Sealer {
    const list = (Array.isArray(secrets) ? secrets : [secrets]) as readonly SealerSecret[];
    if (list.length === 0) throw new RangeError('at least one secret is needed');
    const bytes = list.map((secret) =>
      typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret),
    );
    for (const secret of bytes) {
      if (secret.length < MIN_SECRET_BYTES) {
        throw new RangeError(`the secret must have at least ${MIN_SECRET_BYTES} bytes, got ${secret.length}`);
      }
    }
    return new Sealer(bytes, false);
  }

  /** A sealer of this process alone. */
  static ephemeral(): Sealer {
    return new Sealer([randomBytes(32)], true);
  }

  /** The key of one purpose, of the sealing secret: seals of one purpose never open as another's. */
  key(purpose: string): Buffer {
    return this.keysOf(purpose)[0]!;
  }

  /** The keys of one purpose, of every secret, the sealing one first: for checks that accept any. */
  keysOf(purpose: string): readonly Buffer[] {
    let keys = this.keys.get(purpose);
    if (!keys) {
      keys = this.secrets.map((secret) => Buffer.from(hkdfSync('sha256', secret, 'mcp42', `mcp42:${purpose}`, 32)));
      this.keys.set(purpose, keys);
    }
    return keys;
  }

  /** Seals a JSON value for one purpose, as base64url text. */
  seal(purpose: string, value: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(purpose), iv);
    // The format's version is authenticated too: a seal cannot be passed off as another format's.
    cipher.setAAD(Buffer.of(VERSION));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * Opens a seal of one purpose, made with any of the secrets.
   * @returns `undefined` for anything these secrets did not seal for this purpose (forged, altered,
   *   truncated, another purpose's, another secret's).
   */
  open(purpose: string, sealed: string): unknown {
    const bytes = Buffer.from(sealed, 'base64url');
    // base64url decoding is lenient: a text that does not round-trip is not one we wrote.
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION || bytes.toString('base64url') !== sealed) {
      return undefined;
    }
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    const body = bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES);
    for (const key of this.keysOf(purpose)) {
      const text = decrypt(key, iv, body, tag);
      if (text === undefined) continue;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
}

function decrypt(key: Buffer, iv: Buffer, body: Buffer, tag: Buffer): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.of(VERSION));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
