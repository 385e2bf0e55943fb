/** Injection token of the options as given to `forRoot`/`forRootAsync` is the module definition's; this one holds them resolved. */
export const MCP_OAUTH_RESOLVED_OPTIONS = Symbol('mcp42:oauth-resolved-options');

/** The RFC 9728 well-known path, at the root of the host. */
export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * Asymmetric algorithms only: a resource server holds public keys, and an `HS*` token "signed" with
 * a public key's bytes is the classic key-confusion forgery. `none` is never a signature.
 */
export const DEFAULT_ALGORITHMS = Object.freeze(['RS256', 'ES256', 'PS256', 'EdDSA']);

/** Default clock skew allowed on `exp`/`nbf`/`iat` (seconds). */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

/** Larger skews would keep expired tokens alive for minutes: refused at startup. */
export const MAX_CLOCK_TOLERANCE_SECONDS = 300;

/**
 * The JSON-RPC error code of refusals (no id: the message was never read), as mcp42's transport uses
 * for every refusal at the HTTP level. -32001 is MCP's request timeout, so it is not used here.
 */
export const AUTH_ERROR_CODE = -32000;

/** The logger context of this module. */
export const OAUTH_LOGGER_CONTEXT = 'McpOAuth';
