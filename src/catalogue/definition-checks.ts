import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { Icon } from '../protocol/mcp.types.js';

/** The longest delay Node's timers honour. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The specification's rule for tool names (2025-11-25), applied to prompt names too. */
export const ITEM_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Whether `timeoutMs` is absent or a delay Node's timers honour. */
export function isValidTimeout(timeoutMs: unknown): boolean {
  return (
    timeoutMs === undefined ||
    (Number.isInteger(timeoutMs) && (timeoutMs as number) > 0 && (timeoutMs as number) <= MAX_TIMER_MS)
  );
}

/** @throws McpDefinitionError (`label`: `@McpPrompt() on Class.method`) for a timeout Node cannot honour. */
export function checkTimeout(timeoutMs: unknown, label: string): void {
  if (!isValidTimeout(timeoutMs)) {
    throw new McpDefinitionError(
      `${label}: timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${String(timeoutMs)}`,
    );
  }
}

/** @throws McpDefinitionError for an icon without a `src`. */
export function checkIcons(icons: readonly Icon[] | undefined, label: string): readonly Icon[] | undefined {
  if (icons === undefined) return undefined;
  const bad = Array.isArray(icons) ? icons.findIndex((icon) => typeof icon?.src !== 'string' || icon.src === '') : 0;
  if (bad !== -1) throw new McpDefinitionError(`${label}: icons[${bad}] needs a src URI`);
  return icons;
}

/** `{ key: value }`, or nothing when the value is undefined: optional fields stay absent, not `undefined`. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Freezes an advertised definition all the way down: it is shared by every listing. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * How definition errors name an item: `@McpPrompt() on Class.method` for a decorated method, the
 * owner itself (`runtime prompt plan_trip`) for one added at run time.
 */
export function definitionLabel(decorator: string, owner: string): string {
  return owner.startsWith('runtime ') ? owner : `${decorator} on ${owner}`;
}
