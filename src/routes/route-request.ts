import type { ArgumentPlace } from './route-description.js';
import type { RouteLocation } from './route-location.js';

/** The URL and JSON body of one call's in-process request. */
export interface FilledRoute {
  readonly url: string;
  readonly body: string | undefined;
}

/** An optional group of a path (`{/:page}`), and a token (`:city`). */
const OPTIONAL_GROUP = /\{([^}]*)\}/g;
const TOKEN = /:([A-Za-z0-9_]+)/g;

/**
 * Puts a call's arguments where the route takes them: path parameters into the path (encoded),
 * query fields into the query string (arrays as repeated keys, objects as JSON), body fields into a
 * JSON object. A route that takes a body gets one, `{}` at least.
 */
export function fillRoute(
  location: RouteLocation,
  places: ReadonlyMap<string, ArgumentPlace>,
  args: Readonly<Record<string, unknown>>,
  takesBody: boolean,
): FilledRoute {
  const segment = (name: string): string => encodeURIComponent(asText(args[name]));
  const path = location.path
    .replace(OPTIONAL_GROUP, (_, group: string) =>
      [...group.matchAll(TOKEN)].every(([, name]) => args[name!] !== undefined) ? group : '',
    )
    .replace(TOKEN, (_, name: string) => segment(name));
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const place = places.get(name);
    if (value === undefined || place === 'path') continue;
    if (place === 'body') body[name] = value;
    else if (Array.isArray(value)) for (const item of value) query.append(name, asText(item));
    else query.append(name, asText(value));
  }
  const search = query.toString();
  return { url: search === '' ? path : `${path}?${search}`, body: takesBody ? JSON.stringify(body) : undefined };
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
