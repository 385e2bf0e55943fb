import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidParams } from '../protocol/json-rpc.errors.js';

const TAG_LENGTH = 16;

/**
 * Seals list cursors with an HMAC over the cursor and its scope (the list, and the session or the
 * principal it was issued to), with the deployment's key for cursors. A cursor names the last item
 * served; unsealed, a client could forge one naming a tool its guards hide and learn from the next
 * page whether it exists, or probe positions to count the tools. A sealed cursor can only be one
 * this deployment issued, to this session (or principal), for this list.
 */
export class CursorSeal {
  /** @param keys the HMAC keys, the sealing one first; a cursor tagged with any of them opens (secret rotation). */
  constructor(private readonly keys: readonly Buffer[]) {}

  seal(cursor: string, scope: string): string {
    return `${cursor}.${tagOf(this.keys[0]!, cursor, scope).toString('base64url')}`;
  }

  /** @throws JsonRpcError -32602 for a cursor this application did not issue in this scope. */
  open(sealed: string, scope: string): string {
    const dot = sealed.lastIndexOf('.');
    const cursor = sealed.slice(0, dot);
    const text = sealed.slice(dot + 1);
    const tag = Buffer.from(text, 'base64url');
    if (
      dot <= 0 ||
      tag.length !== TAG_LENGTH ||
      // Node's decoder is lenient (padding, stray characters, spare bits): only the exact text sealed opens.
      tag.toString('base64url') !== text ||
      !this.keys.some((key) => timingSafeEqual(tag, tagOf(key, cursor, scope)))
    ) {
      throw invalidParams('invalid cursor');
    }
    return cursor;
  }
}

function tagOf(key: Buffer, cursor: string, scope: string): Buffer {
  return createHmac('sha256', key).update(scope).update('\0').update(cursor).digest().subarray(0, TAG_LENGTH);
}
