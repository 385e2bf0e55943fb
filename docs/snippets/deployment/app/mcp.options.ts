import type { McpModuleOptions } from 'mcp42';

/** A comma-separated list from the environment, or `fallback`. */
function list(name: string, fallback: readonly string[]): string[] {
  const value = process.env[name];
  return value ? value.split(',').map((entry) => entry.trim()) : [...fallback];
}

// #region options
/** The endpoint's options for every environment, read from the environment. */
export function mcpOptions(): McpModuleOptions {
  return {
    name: 'weather',
    version: process.env.APP_VERSION ?? '1.0.0',
    http: {
      // The host names clients use to reach you (the Host header behind your proxy), port ignored.
      allowedHosts: list('MCP_ALLOWED_HOSTS', ['localhost', '127.0.0.1', '[::1]']),
      // Origins of browser pages that may call the endpoint; requests without Origin always pass.
      allowedOrigins: list('MCP_ALLOWED_ORIGINS', ['http://localhost:*', 'http://127.0.0.1:*']),
      // Lets those pages read the answers (Mcp-Session-Id, WWW-Authenticate); preflights get 204.
      cors: true,
      // SSE comments on idle streams, well under your proxy's idle timeout.
      keepAliveMs: 15_000,
    },
    limits: { sessions: 10_000, sessionsPerPrincipal: 100 },
    // The same secret on every instance: a stateless request's retry, or the next page of a list,
    // may reach another instance.
    state: { secret: process.env.MCP_STATE_SECRET },
  };
}
// #endregion options
