import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';

/** Options with every default applied: what the services read. */
export type ResolvedMcpOptions = Required<Omit<McpModuleOptions, 'title' | 'instructions'>> &
  Pick<McpModuleOptions, 'title' | 'instructions'>;

/** The longest delay Node's timers honour. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The principal of a request, from what authentication guards usually set: `user.sub` or `user.id`. */
export function defaultSessionOwner(request: unknown): string | undefined {
  const user = (request as { user?: unknown } | null | undefined)?.user;
  if (typeof user !== 'object' || user === null) return undefined;
  const { sub, id } = user as { sub?: unknown; id?: unknown };
  const principal = sub ?? id;
  return typeof principal === 'string' || typeof principal === 'number' ? String(principal) : undefined;
}

/** The one place defaults live. */
export const MCP_OPTION_DEFAULTS = {
  maxBodyBytes: 4 * 1024 * 1024,
  sessionIdleTimeoutMs: 30 * 60 * 1000,
  maxSessions: 10_000,
  outboxLimit: 1_000,
  keepAliveMs: 15_000,
  allowedOrigins: LOOPBACK_HOSTS.flatMap((host) => [`http://${host}:*`, `https://${host}:*`]),
  allowedHosts: [...LOOPBACK_HOSTS],
  sessionOwner: defaultSessionOwner,
} as const satisfies Partial<McpModuleOptions>;

/** Applies defaults and rejects values that cannot work, so a typo fails at bootstrap, not under load. */
export function resolveMcpOptions(options: McpModuleOptions): ResolvedMcpOptions {
  if (!options || typeof options.name !== 'string' || typeof options.version !== 'string') {
    throw new TypeError('McpModule: options.name and options.version are required strings');
  }
  const resolved: ResolvedMcpOptions = {
    ...MCP_OPTION_DEFAULTS,
    ...withoutUndefined(options),
  };
  for (const key of ['maxBodyBytes', 'sessionIdleTimeoutMs', 'maxSessions', 'outboxLimit'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] <= 0) {
      throw new TypeError(`McpModule: options.${key} must be a positive number, got ${String(resolved[key])}`);
    }
  }
  // Node clamps timer delays past 2^31 - 1 ms to 1 ms: such a value would flood streams, not space them.
  if (!Number.isFinite(resolved.keepAliveMs) || resolved.keepAliveMs < 0 || resolved.keepAliveMs > MAX_TIMER_MS) {
    throw new TypeError(
      `McpModule: options.keepAliveMs must be from 0 to ${MAX_TIMER_MS}, got ${String(resolved.keepAliveMs)}`,
    );
  }
  if (typeof resolved.sessionOwner !== 'function') {
    throw new TypeError('McpModule: options.sessionOwner must be a function');
  }
  for (const key of ['allowedOrigins', 'allowedHosts'] as const) {
    if (!Array.isArray(resolved[key]) || !resolved[key].every((entry) => typeof entry === 'string')) {
      throw new TypeError(`McpModule: options.${key} must be an array of strings`);
    }
  }
  return resolved;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
