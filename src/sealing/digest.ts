import { createHash } from 'node:crypto';
import { invalidParams } from '../protocol/json-rpc.errors.js';

/** Deeper arguments than any real call has: past it the digest refuses them rather than overflow the stack. */
export const MAX_DIGEST_DEPTH = 256;

/**
 * A digest of a JSON value that does not depend on the order of object keys: what binds sealed
 * state to the arguments of the request it belongs to.
 * @throws JsonRpcError -32602 for a value nested deeper than {@link MAX_DIGEST_DEPTH}.
 */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

/**
 * JSON with object keys sorted at every depth (values JSON cannot hold are written as `null`).
 * @throws JsonRpcError -32602 for a value nested deeper than {@link MAX_DIGEST_DEPTH}.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DIGEST_DEPTH) throw invalidParams(`arguments are nested deeper than ${MAX_DIGEST_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key], depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
