/**
 * An authorization server whose access tokens the MCP endpoint accepts.
 * @category OAuth
 */
export interface McpOAuthIssuer {
  /**
   * The issuer identifier, exactly as the server writes it in `iss` and in its metadata (an `https`
   * URL; plain `http` only on a loopback host, for development).
   */
  readonly issuer: string;
  /**
   * The server's JSON Web Key Set, when known: skips metadata discovery. Otherwise it is the
   * `jwks_uri` of the server's RFC 8414 (`/.well-known/oauth-authorization-server`) or OpenID
   * (`/.well-known/openid-configuration`) metadata.
   */
  readonly jwksUri?: string;
}

/**
 * RFC 7662 token introspection, for opaque (non-JWT) access tokens.
 * @category OAuth
 */
export interface McpOAuthIntrospection {
  /** The authorization server's introspection endpoint (`https`, or `http` on loopback). */
  readonly endpoint: string;
  /** This resource server's client id at the authorization server (sent with HTTP Basic). */
  readonly clientId: string;
  /** Its client secret. */
  readonly clientSecret: string;
  /**
   * The issuer whose tokens the endpoint introspects, when the answer carries no `iss`.
   * @default the first of `issuers`
   */
  readonly issuer?: string;
}

/**
 * Options of {@link McpOAuthModule}: the MCP endpoint as an OAuth 2.1 resource server.
 * @category OAuth
 */
export interface McpOAuthOptions {
  /**
   * The canonical URI of the MCP server (RFC 8707, RFC 9728 `resource`), e.g.
   * `https://mcp.example.com/mcp`: tokens must name it in `aud`. Its path also places the
   * metadata document, at `/.well-known/oauth-protected-resource<path>`.
   */
  readonly resource: string;
  /** The authorization servers trusted to issue tokens for this server: issuer URLs, or {@link McpOAuthIssuer}s. */
  readonly issuers: readonly (string | McpOAuthIssuer)[];
  /**
   * Scopes every request to the endpoint needs; a token without all of them gets 403
   * `insufficient_scope`. Per-tool scopes belong on the tools (`@McpScopes()`).
   * @default []
   */
  readonly requiredScopes?: readonly string[];
  /**
   * Scopes advertised in `scopes_supported` (and in the `scope` of the 401 challenge), besides
   * `requiredScopes` and, unless `discoverScopes` is false, the scopes of every `@McpScopes()`.
   * @default []
   */
  readonly scopesSupported?: readonly string[];
  /**
   * Whether `scopes_supported` also lists the scopes `@McpScopes()` requires anywhere in the
   * application (found at bootstrap).
   * @default true
   */
  readonly discoverScopes?: boolean;
  /**
   * Signature algorithms accepted. `none` and the HMAC algorithms (`HS*`) are refused: a resource
   * server verifies with public keys only.
   * @default ['RS256', 'ES256', 'PS256', 'EdDSA']
   */
  readonly algorithms?: readonly string[];
  /**
   * Seconds of clock skew allowed on `exp`, `nbf` and `iat`, at most 300.
   * @default 30
   */
  readonly clockToleranceSeconds?: number;
  /**
   * Audiences accepted besides `resource` (some authorization servers name an API identifier instead).
   * @default []
   */
  readonly additionalAudiences?: readonly string[];
  /**
   * A `typ` header the JWT must carry, e.g. `'at+jwt'` (RFC 9068 access tokens), so that ID tokens
   * and other JWTs of the same issuer are refused. Unchecked unless given.
   */
  readonly tokenType?: string;
  /** `resource_name` of the metadata document: a human-readable name of the server. */
  readonly resourceName?: string;
  /** `resource_documentation` of the metadata document: a URL of documentation for developers. */
  readonly resourceDocumentation?: string;
  /** Opaque tokens: RFC 7662 introspection. Without it, only JWT access tokens are accepted. */
  readonly introspection?: McpOAuthIntrospection;
  /**
   * Milliseconds between two fetches of a key set prompted by an unknown `kid` (a rotated key),
   * so that tokens with made-up key ids cannot make the server hammer the authorization server.
   * @default 30000
   */
  readonly jwksCooldownMs?: number;
  /**
   * Milliseconds a fetched key set (and discovered metadata) is used before it is fetched again.
   * @default 600000
   */
  readonly jwksCacheMaxAgeMs?: number;
  /**
   * Milliseconds a request to an authorization server (metadata, keys, introspection) may take.
   * @default 5000
   */
  readonly httpTimeoutMs?: number;
}

/**
 * What `forRoot` / `forRootAsync` take besides the options.
 * @category OAuth
 */
export interface McpOAuthModuleExtras {
  /**
   * Whether the module is global. It is by default, so that `McpOAuthGuard` can be given to
   * `McpModule.forRoot({ guards })`, whose guards are instantiated in McpModule's scope.
   * @default true
   */
  isGlobal?: boolean;
}
