import type { McpCacheHintOptions } from '../interfaces/mcp-module-options.interface.js';
import type { CacheHint, CacheScope } from '../protocol/mcp.types.js';

/**
 * The caching hint of a 2026-07-28 result: the item's own, else the configured one for its kind,
 * else `ttlMs` 0 (stale at once: nothing is cached unless asked for) and `fallbackScope`.
 */
export function resolveCacheHint(
  fallbackScope: CacheScope,
  ...hints: readonly (McpCacheHintOptions | undefined)[]
): CacheHint {
  let ttlMs: number | undefined;
  let scope: CacheScope | undefined;
  for (const hint of hints) {
    ttlMs ??= hint?.ttlMs;
    scope ??= hint?.scope;
  }
  return Object.freeze({ ttlMs: ttlMs ?? 0, cacheScope: scope ?? fallbackScope });
}

/**
 * Checks a caching hint (`ttlMs`, `scope`) from the options or an item's `cache` option.
 * @throws TypeError naming `where`.
 */
export function validateCacheHint(where: string, hint: unknown): void {
  if (hint === undefined) return;
  if (typeof hint !== 'object' || hint === null) throw new TypeError(`${where} must be an object`);
  const { ttlMs, scope, ...rest } = hint as { ttlMs?: unknown; scope?: unknown };
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new TypeError(`${where} has unknown field(s) ${unknown.join(', ')}; use ttlMs and scope`);
  if (ttlMs !== undefined && !(Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 0)) {
    throw new TypeError(`${where}.ttlMs must be a whole number of milliseconds, 0 or more`);
  }
  if (scope !== undefined && scope !== 'public' && scope !== 'private') {
    throw new TypeError(`${where}.scope must be 'public' or 'private'`);
  }
}
