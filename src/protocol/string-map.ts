import { isPlainObject } from './json-rpc.codec.js';

/** Whether `value` is an object whose values are all strings: prompt arguments, completion context. */
export function isStringMap(value: unknown): value is Record<string, string> {
  return isPlainObject(value) && Object.values(value).every((entry) => typeof entry === 'string');
}
