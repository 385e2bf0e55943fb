import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 12;
/** Bytes at or above this would favour the first letters (256 is not a multiple of 36). */
const UNBIASED_BELOW = 256 - (256 % ALPHABET.length);

/**
 * A fresh instance id: 12 characters of `[0-9a-z]`, from the system's random source (≈ 62 bits).
 * @internal
 */
export function newReplicaId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(ID_LENGTH * 2)) {
      if (byte < UNBIASED_BELOW && id.length < ID_LENGTH) id += ALPHABET[byte % ALPHABET.length];
    }
  }
  return id;
}
