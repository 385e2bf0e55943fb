import { isPlainObject } from './json-rpc.codec.js';

const ELICIT_ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/**
 * Checks the shape of a client's answers to server requests before a tool sees them: a tool must
 * be able to trust `result.action` without checking it itself. Each returns the problem, or
 * `undefined` when the answer is well formed.
 */
export function elicitResultProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'the result is not an object';
  if (!ELICIT_ACTIONS.has(value.action)) return 'action must be accept, decline or cancel';
  if (value.content !== undefined && !isPlainObject(value.content)) return 'content must be an object';
  return undefined;
}

export function createMessageResultProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'the result is not an object';
  if (value.role !== 'user' && value.role !== 'assistant') return 'role must be user or assistant';
  if (typeof value.model !== 'string') return 'model must be a string';
  if (!isPlainObject(value.content) && !Array.isArray(value.content)) return 'content must be a block or blocks';
  return undefined;
}

export function listRootsResultProblem(value: unknown): string | undefined {
  if (!isPlainObject(value) || !Array.isArray(value.roots)) return 'roots must be an array';
  const bad = value.roots.findIndex((root) => !isPlainObject(root) || typeof root.uri !== 'string');
  return bad === -1 ? undefined : `roots[${bad}] has no uri`;
}
