import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { MAX_TIMER_MS } from '../mcp.constants.js';
import type { Icon } from '../protocol/mcp.types.js';

/** The specification's rule for tool names (2025-11-25). */
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

/**
 * @throws McpDefinitionError for an icon without a `src`, or with a `mimeType`, `sizes` or `theme`
 *   of the wrong type (clients reject a whole listing over one such field).
 */
export function checkIcons(icons: readonly Icon[] | undefined, label: string): readonly Icon[] | undefined {
  if (icons === undefined) return undefined;
  // `as unknown`: on a readonly array type, Array.isArray would leave `icons` typed `any[]`.
  if (!Array.isArray(icons as unknown)) throw new McpDefinitionError(`${label}: icons[0] needs a src URI`);
  icons.forEach((icon: Partial<Icon> | null | undefined, index) => {
    if (typeof icon?.src !== 'string' || icon.src === '') {
      throw new McpDefinitionError(`${label}: icons[${index}] needs a src URI`);
    }
    const { mimeType, sizes, theme } = icon;
    if (mimeType !== undefined && typeof mimeType !== 'string') {
      throw new McpDefinitionError(`${label}: icons[${index}].mimeType must be a string`);
    }
    if (sizes !== undefined && !(Array.isArray(sizes) && sizes.every((size) => typeof size === 'string'))) {
      throw new McpDefinitionError(`${label}: icons[${index}].sizes must be a list of strings such as "48x48"`);
    }
    if (theme !== undefined && theme !== 'light' && theme !== 'dark') {
      throw new McpDefinitionError(`${label}: icons[${index}].theme must be "light" or "dark"`);
    }
  });
  return icons;
}

/**
 * An optional text field of a definition: absent when `undefined` or `null` (rows from a database
 * say "none" with null), kept when a string.
 * @throws McpDefinitionError for any other value.
 */
export function optionalText<K extends string>(key: K, value: unknown, label: string): { [P in K]?: string } {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') throw new McpDefinitionError(`${label}: ${key} must be a string`);
  return { [key]: value } as { [P in K]?: string };
}

/** `_meta` of a definition: absent when `undefined` or `null`. @throws McpDefinitionError unless an object. */
export function optionalMeta(value: unknown, label: string): { _meta?: Record<string, unknown> } {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new McpDefinitionError(`${label}: _meta must be an object`);
  return { _meta: value as Record<string, unknown> };
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
