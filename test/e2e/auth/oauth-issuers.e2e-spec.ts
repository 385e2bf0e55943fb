/**
 * mcp42/oauth and its authorization servers: key rotation (an unknown kid refetches the key set, at
 * most once per cooldown), discovery through RFC 8414 or OpenID metadata with several issuers at
 * once, endpoint-wide required scopes (403 insufficient_scope), opaque tokens by RFC 7662
 * introspection, an unreachable server (503), and the official SDK client reading the challenge.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exchange } from '../../utils/http-mcp-client.js';
import type { HttpResult } from '../../utils/http-exchange.js';
import { startOAuthApp, type RunningOAuthApp } from '../../utils/oauth-app.js';
import { OAuthIssuer } from '../../utils/oauth-issuer.js';
import { expectRefusal } from '../../utils/refusal.js';
import { initializeRequest, MCP_POST_HEADERS } from '../../utils/start-app.js';
import { delay } from '../../utils/wait.js';

const initialize = (app: RunningOAuthApp, token?: string): Promise<HttpResult> =>
  exchange(app.mcpUrl, {
    headers: { ...MCP_POST_HEADERS, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: initializeRequest(),
  });

const descriptionOf = (reply: HttpResult): string | undefined =>
  /error_description="([^"]*)"/.exec(String(reply.headers['www-authenticate']))?.[1];

describe('mcp42/oauth: key rotation', () => {
  // Long enough that the steps "within the cooldown" finish inside it on a loaded 2-core machine.
  const COOLDOWN_MS = 4_000;
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start({ alg: 'ES256' });
    app = await startOAuthApp({ issuers: [issuer.issuer], jwksCooldownMs: COOLDOWN_MS });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  it('refuses an unknown kid, refetching the key set at most once per cooldown, and accepts the rotated key after it', async () => {
    const claims = (): Record<string, unknown> => issuer.claims(app.resource);
    expect((await initialize(app, await issuer.sign(claims()))).status).toBe(200);
    expect(issuer.jwksFetches).toBe(1);

    // Made-up key ids, right after the fetch: refused without asking the issuer again.
    const stray = await OAuthIssuer.newKey('ES256');
    for (let i = 0; i < 3; i++) {
      const reply = await initialize(app, await issuer.sign(claims(), { key: stray }));
      expect(reply.status).toBe(401);
      expect(descriptionOf(reply)).toBe('The token is signed with an unknown key');
    }
    expect(issuer.jwksFetches).toBe(1);

    // The issuer rotates; within the cooldown the new key is not fetched yet...
    const rotated = await issuer.rotate('ES256');
    expect((await initialize(app, await issuer.sign(claims(), { key: rotated }))).status).toBe(401);
    expect(issuer.jwksFetches).toBe(1);

    // ...after it, the unknown kid makes one refetch, and the new key is good. (A fixed wait on
    // purpose: the cooldown's length is what is tested.)
    await delay(COOLDOWN_MS + 100);
    expect((await initialize(app, await issuer.sign(claims(), { key: rotated }))).status).toBe(200);
    expect(issuer.jwksFetches).toBe(2);
    const [first, second] = await Promise.all([
      initialize(app, await issuer.sign(claims(), { key: stray })),
      initialize(app, await issuer.sign(claims(), { key: stray })),
    ]);
    expect([first.status, second.status]).toEqual([401, 401]);
    expect(issuer.jwksFetches).toBe(2);
  }, 20_000);
});

describe('mcp42/oauth: several issuers, discovery, required scopes', () => {
  let oauthIssuer: OAuthIssuer;
  let oidcTenant: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    oauthIssuer = await OAuthIssuer.start();
    // An OpenID provider with a path (a tenant): found at /.well-known/openid-configuration/tenant1.
    oidcTenant = await OAuthIssuer.start({ path: '/tenant1', discovery: 'openid', alg: 'PS256' });
    app = await startOAuthApp({
      issuers: [oauthIssuer.issuer, { issuer: oidcTenant.issuer }],
      requiredScopes: ['mcp:use'],
      discoverScopes: false,
    });
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([oauthIssuer?.close(), oidcTenant?.close()]);
  });

  it('accepts the tokens of each issuer, found by its own kind of metadata', async () => {
    for (const issuer of [oauthIssuer, oidcTenant]) {
      const token = await issuer.sign(issuer.claims(app.resource, { scope: 'mcp:use' }));
      expect((await initialize(app, token)).status).toBe(200);
    }
  });

  it('keeps the principals of two issuers apart (same sub, other iss)', async () => {
    const [a, b] = [oauthIssuer, oidcTenant].map((issuer) =>
      issuer.sign(issuer.claims(app.resource, { scope: 'mcp:use', sub: 'same' })),
    );
    const first = await initialize(app, await a);
    const sessionId = String(first.headers['mcp-session-id']);
    const other = await exchange(app.mcpUrl, {
      headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${await b}`, 'mcp-session-id': sessionId },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(other.status).toBe(404);
  });

  it('answers a token without the required scopes 403 insufficient_scope, naming them', async () => {
    const token = await oauthIssuer.sign(oauthIssuer.claims(app.resource, { scope: 'notes:read' }));
    const reply = await initialize(app, token);
    expectRefusal(reply, 403, {
      data: { error: 'insufficient_scope' },
      headers: {
        'www-authenticate':
          'Bearer error="insufficient_scope", error_description="Missing scope(s): mcp:use", scope="mcp:use", ' +
          `resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
      },
    });
  });

  it('advertises the required scopes, and only the configured ones when discovery is off', async () => {
    const reply = await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource`);
    expect(await reply.json()).toMatchObject({
      authorization_servers: [oauthIssuer.issuer, oidcTenant.issuer],
      scopes_supported: ['mcp:use'],
    });
  });
});

describe('mcp42/oauth: opaque tokens by introspection (RFC 7662)', () => {
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start();
    app = await startOAuthApp({
      issuers: [issuer.issuer],
      introspection: { endpoint: issuer.introspectionEndpoint, ...issuer.introspectionClient },
    });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  const answer = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    ...issuer.claims(app.resource),
    client_id: 'cli',
    ...extra,
  });

  it('accepts an active token for this resource, as iss#sub', async () => {
    expect((await initialize(app, issuer.opaqueToken(answer()))).status).toBe(200);
  });

  it.each([
    ['inactive', { active: false }, 'The token is not active'],
    ['for another resource', { aud: 'https://other.example/mcp' }, 'The token was not issued for this resource'],
    ['from an untrusted issuer', { iss: 'https://evil.example' }, 'The token is not from a trusted issuer'],
    ['expired', { exp: Math.floor(Date.now() / 1000) - 120 }, 'The token has expired'],
  ])('refuses a token %s', async (_name, extra, description) => {
    const reply = await initialize(app, issuer.opaqueToken(answer(extra)));
    expect(reply.status).toBe(401);
    expect(descriptionOf(reply)).toBe(description);
  });

  it('refuses a token the server does not know', async () => {
    expect(descriptionOf(await initialize(app, 'unknown-opaque-token'))).toBe('The token is not active');
  });
});

describe('mcp42/oauth: an authorization server that cannot be reached', () => {
  // Long enough that the retry "within the cooldown" comes inside it on a loaded 2-core machine.
  const COOLDOWN_MS = 3_000;
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start();
    app = await startOAuthApp({ issuers: [issuer.issuer], jwksCooldownMs: COOLDOWN_MS });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  it('answers 503 (retry), not 401 (re-authorize), and asks again once the cooldown has passed', async () => {
    const token = await issuer.sign(issuer.claims(app.resource));
    issuer.down = true;
    const reply = await initialize(app, token);
    expectRefusal(reply, 503, { headers: { 'retry-after': '5' } });
    expect(reply.headers['www-authenticate']).toBeUndefined();

    // Back up: the failure is remembered for the cooldown (no hammering), then discovery runs again.
    issuer.down = false;
    expect((await initialize(app, token)).status).toBe(503);
    // A fixed wait on purpose: the cooldown's length is what is tested.
    await delay(COOLDOWN_MS + 100);
    expect((await initialize(app, token)).status).toBe(200);
  }, 20_000);
});

describe('mcp42/oauth: the official SDK client (v1)', () => {
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start();
    app = await startOAuthApp({ issuers: [issuer.issuer] });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  it('reads the challenge, then the resource metadata, then the authorization server metadata', async () => {
    const refused = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: JSON.stringify(initializeRequest()),
    });
    expect(refused.status).toBe(401);
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(refused);
    expect(resourceMetadataUrl?.href).toBe(`${app.baseUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(scope).toBe('notes:write');

    const metadata = await discoverOAuthProtectedResourceMetadata(app.mcpUrl, { resourceMetadataUrl });
    expect(metadata.resource).toBe(app.resource);
    expect(metadata.authorization_servers).toEqual([issuer.issuer]);
    // Without the header's URL the client finds it at the path-specific well-known URI on its own.
    expect((await discoverOAuthProtectedResourceMetadata(app.mcpUrl)).resource).toBe(app.resource);

    const server = await discoverAuthorizationServerMetadata(metadata.authorization_servers![0]!);
    expect(server?.issuer).toBe(issuer.issuer);
  });

  it('calls a tool with a bearer token', async () => {
    const token = await issuer.sign(issuer.claims(app.resource, { sub: 'sdk-user' }));
    const client = new Client({ name: 'oauth-sdk-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(app.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      expect(JSON.parse(text)).toMatchObject({ sub: `${issuer.issuer}#sdk-user` });
    } finally {
      await client.close();
    }
  });
});
