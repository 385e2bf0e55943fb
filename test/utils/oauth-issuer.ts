import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { AuthorizationEndpoints, type EndpointAnswer } from './oauth-authorization.js';

/** A signing key of the issuer: its id, algorithm, and both halves. */
export interface IssuerKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly publicKey: CryptoKey;
}

export interface OAuthIssuerOptions {
  /** A path of the issuer URL (`/tenant1`), as multi-tenant servers have. */
  readonly path?: string;
  /** Which discovery document it publishes: RFC 8414's (default) or OpenID Connect's. */
  readonly discovery?: 'oauth' | 'openid';
  /** The signing algorithm of its first key. */
  readonly alg?: string;
  /** The scopes it knows (`scopes_supported`); clients asking for others are refused. Any, unless given. */
  readonly scopes?: readonly string[];
}

export interface SignOptions {
  /** Sign with this key (default: the current one); it need not be published. */
  readonly key?: IssuerKey;
  /** Header fields to set or override (`kid: undefined` drops the key id). */
  readonly header?: Record<string, unknown>;
}

/** An opaque token the introspection endpoint knows, with the answer it gives. */
type IntrospectionAnswer = Record<string, unknown>;

/**
 * A real OAuth authorization server on 127.0.0.1: its metadata (RFC 8414 or OpenID discovery), its
 * JSON Web Key Set and RFC 7662 introspection, which a resource server uses; and the registration,
 * authorization and token endpoints an MCP client uses ({@link AuthorizationEndpoints}). It signs
 * access tokens with the claims a test chooses, rotates keys, and counts the key set fetches.
 */
export class OAuthIssuer {
  /** Key set fetches so far. */
  jwksFetches = 0;
  /** Introspection requests so far. */
  introspections = 0;
  /** While true, every request is answered 500, as by a server that is down. */
  down = false;
  private keys: IssuerKey[] = [];
  private readonly opaque = new Map<string, IntrospectionAnswer>();
  readonly introspectionClient = { clientId: 'mcp-server', clientSecret: 's3cret:with/odd&chars' };
  /** Where clients register, authorize and get tokens; tests set its user, consent and refresh policy. */
  readonly authorization: AuthorizationEndpoints;

  private constructor(
    private readonly server: http.Server,
    readonly issuer: string,
    private readonly options: OAuthIssuerOptions,
  ) {
    this.authorization = new AuthorizationEndpoints({
      issuer,
      mint: (claims) => this.sign(claims),
      ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
    });
  }

  /** Starts one on an ephemeral loopback port. */
  static async start(options: OAuthIssuerOptions = {}): Promise<OAuthIssuer> {
    let handler: http.RequestListener = () => undefined;
    const server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const issuer = new OAuthIssuer(server, `http://127.0.0.1:${port}${options.path ?? ''}`, options);
    await issuer.rotate(options.alg ?? 'RS256');
    handler = (req, res) => void issuer.handle(req, res);
    return issuer;
  }

  get jwksUri(): string {
    return `${this.issuer}/jwks`;
  }

  get introspectionEndpoint(): string {
    return `${this.issuer}/introspect`;
  }

  /** The key tokens are signed with unless told. */
  get current(): IssuerKey {
    return this.keys[this.keys.length - 1]!;
  }

  /** A key pair of the issuer's kind that is not published. */
  static async newKey(alg = 'RS256'): Promise<IssuerKey> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
    return { kid, alg, privateKey, publicKey, publicJwk };
  }

  /**
   * Publishes a new current key.
   * @param keepOld whether the previous keys stay published (a graceful rotation) or go.
   */
  async rotate(alg = this.current?.alg ?? 'RS256', keepOld = false): Promise<IssuerKey> {
    const key = await OAuthIssuer.newKey(alg);
    this.keys = keepOld ? [...this.keys, key] : [key];
    return key;
  }

  /** Claims of a good token for `resource`, valid for five minutes; `claims` adds to or overrides them. */
  claims(resource: string, claims: JWTPayload = {}): JWTPayload {
    const now = Math.floor(Date.now() / 1000);
    return { iss: this.issuer, sub: 'alice', aud: resource, iat: now, exp: now + 300, scope: 'notes:read', ...claims };
  }

  /** A JWT with exactly `claims`, signed with the current key (or `options.key`). */
  async sign(claims: JWTPayload, options: SignOptions = {}): Promise<string> {
    const key = options.key ?? this.current;
    const header = { alg: key.alg, kid: key.kid, typ: 'at+jwt', ...options.header };
    return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key.privateKey);
  }

  /** An unsecured JWT (`alg: none`), as an attacker writes one. */
  unsigned(claims: JWTPayload): string {
    return `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(claims)}.`;
  }

  /**
   * The key-confusion forgery: an HS256 token whose HMAC key is the issuer's public key (PEM), which
   * a verifier that lets the token pick the algorithm would accept.
   */
  async hmacWithPublicKey(claims: JWTPayload): Promise<string> {
    const pem = await exportSPKI(this.current.publicKey);
    const input = `${encode({ alg: 'HS256', kid: this.current.kid, typ: 'at+jwt' })}.${encode(claims)}`;
    return `${input}.${createHmac('sha256', pem).update(input).digest('base64url')}`;
  }

  /** An opaque token its introspection endpoint answers `answer` for (`active: true` unless overridden). */
  opaqueToken(answer: IntrospectionAnswer): string {
    const token = randomUUID().replaceAll('-', '');
    this.opaque.set(token, { active: true, ...answer });
    return token;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (this.down) return json(res, 500, { error: 'server_error' });
    const url = new URL(req.url ?? '/', this.issuer);
    const path = this.options.path ?? '';
    const metadataPath =
      this.options.discovery === 'openid'
        ? `/.well-known/openid-configuration${path}`
        : `/.well-known/oauth-authorization-server${path}`;
    if (req.method === 'GET' && url.pathname === metadataPath) return json(res, 200, this.metadata());
    if (req.method === 'GET' && url.pathname === `${path}/jwks`) {
      this.jwksFetches++;
      return json(res, 200, { keys: this.keys.map((key) => key.publicJwk) });
    }
    if (req.method === 'POST' && url.pathname === `${path}/introspect`) {
      this.introspections++;
      const body = await text(req);
      const { clientId, clientSecret } = this.introspectionClient;
      const expected = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
        'base64',
      );
      if (req.headers.authorization !== `Basic ${expected}`) return json(res, 401, { error: 'invalid_client' });
      const token = new URLSearchParams(body).get('token') ?? '';
      return json(res, 200, this.opaque.get(token) ?? { active: false });
    }
    if (req.method === 'POST' && url.pathname === `${path}/register`) {
      return answer(res, this.authorization.register(await text(req)));
    }
    if (req.method === 'GET' && url.pathname === `${path}/authorize`) {
      return answer(res, this.authorization.authorize(url.searchParams));
    }
    if (req.method === 'POST' && url.pathname === `${path}/token`) {
      return answer(res, await this.authorization.token(new URLSearchParams(await text(req))));
    }
    json(res, 404, { error: 'not_found' });
  }

  private metadata(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: this.jwksUri,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      registration_endpoint: `${this.issuer}/register`,
      introspection_endpoint: this.introspectionEndpoint,
      ...(this.options.scopes === undefined ? {} : { scopes_supported: this.options.scopes }),
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256'],
      // Required of an OpenID provider's document, though no ID token is issued here.
      ...(this.options.discovery === 'openid'
        ? { subject_types_supported: ['public'], id_token_signing_alg_values_supported: [this.current.alg] }
        : {}),
    };
  }
}

/** Writes an endpoint's answer: its redirect, or its JSON, never cached (token responses must not be). */
function answer(res: http.ServerResponse, { status, body, location }: EndpointAnswer): void {
  if (location !== undefined) {
    res.writeHead(status, { location, 'content-length': 0 });
    return void res.end();
  }
  json(res, status, body ?? {}, { 'cache-control': 'no-store' });
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function text(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
