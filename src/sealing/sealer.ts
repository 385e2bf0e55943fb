import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The shortest secret accepted: 32 bytes, the key size of what it derives. */
export const MIN_SECRET_BYTES = 32;

/**
 * Seals what the server hands to clients and must get back unchanged (MRTR `requestState`, list
 * cursors): AES-256-GCM, so a client can neither read nor alter it, with a key per purpose derived
 * (HKDF-SHA256) from one secret. Instances of a deployment that share the secret open each other's
 * seals; without one, a random key of this process is used, and seals die with it.
 */
export class Sealer {
  private readonly keys = new Map<string, Buffer>();

  private constructor(
    private readonly secret: Buffer,
    /** Whether the secret was made up for this process rather than given. */
    readonly ephemeral: boolean,
  ) {}

  /** A sealer whose seals every holder of `secret` can open. */
  static fromSecret(secret: string | Uint8Array): Sealer {
    const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new RangeError(`the secret must have at least ${MIN_SECRET_BYTES} bytes, got ${bytes.length}`);
    }
    return new Sealer(bytes, false);
  }

  /** A sealer of this process alone. */
  static ephemeral(): Sealer {
    return new Sealer(randomBytes(32), true);
  }

  /** The key of one purpose: seals of one purpose never open as another's. */
  key(purpose: string): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.secret, 'mcp42', `mcp42:${purpose}`, 32));
      this.keys.set(purpose, key);
    }
    return key;
  }

  /** Seals a JSON value for one purpose, as base64url text. */
  seal(purpose: string, value: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(purpose), iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * Opens a seal of one purpose.
   * @returns `undefined` for anything this secret did not seal for this purpose (forged, altered,
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
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key(purpose), iv);
      decipher.setAuthTag(tag);
      const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
}
