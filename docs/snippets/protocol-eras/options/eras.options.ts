import type { McpModuleOptions } from 'mcp42';

// #region modern
/** 2026-07-28 only: 2025 clients get the unsupported-version error naming 2026-07-28. */
export const modernOnly: McpModuleOptions = { name: 'weather', version: '1.0.0', eras: 'modern' };
// #endregion modern

// #region legacy
/** 2025 sessions only: a 2026-07-28 client falls back to initialize. */
export const legacyOnly: McpModuleOptions = { name: 'weather', version: '1.0.0', eras: 'legacy' };
// #endregion legacy

// #region sessionless
/**
 * Nothing kept between requests: 2025 clients are served without sessions (as the official SDK v2
 * serves them by default), 2026-07-28 requests as always. Any instance answers any request; only
 * the secret is shared.
 */
export const noState: McpModuleOptions = {
  name: 'weather',
  version: '1.0.0',
  sessions: { enabled: false },
  state: { secret: process.env.MCP_STATE_SECRET },
};
// #endregion sessionless

// #region rotation
/** Rotating the secret: the first seals, every one opens. Drop the old one once requestStateTtlMs has passed. */
export const rotating: McpModuleOptions = {
  name: 'weather',
  version: '1.0.0',
  state: {
    secret: [process.env.MCP_STATE_SECRET!, process.env.MCP_STATE_SECRET_PREVIOUS!],
    requestStateTtlMs: 15 * 60_000,
  },
};
// #endregion rotation

// #region cache
/** Caching hints of 2026-07-28 results, per kind of list (a resource may set its own `cache`). */
export const cached: McpModuleOptions = {
  name: 'weather',
  version: '1.0.0',
  cache: {
    discover: { ttlMs: 3_600_000 }, // scope stays 'public'
    tools: { ttlMs: 300_000, scope: 'public' }, // the same list for every caller: no guards on tools
    reads: { ttlMs: 60_000 }, // resources/read, scope stays 'private'
  },
};
// #endregion cache
