/**
 * The official SDK client (v1) authorizing itself against the endpoint, no token handed to it: from
 * the 401 challenge it reads the Protected Resource Metadata, discovers the loopback issuer
 * (test/utils/oauth-issuer.ts), registers (RFC 7591), sends its user to authorize (PKCE, RFC 8707
 * `resource`), redeems the code, and calls tools with the token it got. Then what it does later: a
 * refused token refreshed, and a 403 insufficient_scope (step-up).
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { decodeJwt } from 'jose';
import { startOAuthApp, type RunningOAuthApp } from '../../utils/oauth-app.js';
import { InMemoryOAuthClient, REDIRECT_URL } from '../../utils/oauth-client-provider.js';
import { OAuthIssuer } from '../../utils/oauth-issuer.js';

/**
 * One client's requests, as `METHOD server|issuer /path status`, in the order the SDK (or its "user")
 * made them.
 */
class RequestLog {
  readonly entries: string[] = [];
  private mark = 0;

  constructor(private readonly names: Record<string, string>) {}

  readonly fetch: FetchLike = async (url, init) => {
    const target = new URL(url);
    const name = this.names[target.origin] ?? target.origin;
    // Written when sent, so that the order is the order of the requests; the status added when answered.
    const index = this.entries.push(`${init?.method ?? 'GET'} ${name} ${target.pathname}`) - 1;
    const response = await fetch(url, init);
    this.entries[index] += ` ${response.status}`;
    return response;
  };

  /** The requests since the last call. */
  since(): string[] {
    const entries = this.entries.slice(this.mark);
    this.mark = this.entries.length;
    return entries;
  }
}

/** A client of the test, its SDK transport seeing the log's fetch; closed after the test. */
interface Flow {
  readonly provider: InMemoryOAuthClient;
  readonly log: RequestLog;
  transport(): StreamableHTTPClientTransport;
  connect(transport?: StreamableHTTPClientTransport): Promise<Client>;
}

const prm = '/.well-known/oauth-protected-resource/mcp';

/** Makes flows for the tests of the enclosing `describe`; their clients are closed after each test. */
function useFlows(target: () => { app: RunningOAuthApp; issuer: OAuthIssuer }): () => Flow {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  return () => {
    const { app, issuer } = target();
    const log = new RequestLog({ [new URL(app.baseUrl).origin]: 'server', [new URL(issuer.issuer).origin]: 'issuer' });
    const provider = new InMemoryOAuthClient(log.fetch);
    const transport = (): StreamableHTTPClientTransport =>
      new StreamableHTTPClientTransport(new URL(app.mcpUrl), { authProvider: provider, fetch: log.fetch });
    const connect = async (over = transport()): Promise<Client> => {
      const client = new Client({ name: 'oauth-sdk-flow', version: '1.0.0' });
      clients.push(client);
      await client.connect(over);
      return client;
    };
    return { provider, log, transport, connect };
  };
}

/** `connect` refused for want of authorization, and the transport that was refused (to finish it on). */
async function refusedConnection(flow: Flow): Promise<StreamableHTTPClientTransport> {
  const transport = flow.transport();
  await expect(flow.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(flow.provider.code).toEqual(expect.any(String));
  return transport;
}

/** The request.user the `whoami` tool saw. */
async function whoami(client: Client): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  return JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>;
}

/** The issuer's RFC 8414 metadata, where the SDK looks first. */
const asMetadata = 'GET issuer /.well-known/oauth-authorization-server 200';
/** The GET stream the SDK opens after initialization, whenever its turn comes: not part of any sequence here. */
const withoutStream = (entries: string[]): string[] => entries.filter((entry) => !entry.startsWith('GET server /mcp'));
const now = (): number => Math.floor(Date.now() / 1000);

describe('mcp42/oauth: the official SDK client (v1) authorizes itself', () => {
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start({ scopes: ['notes:read', 'notes:write'] });
    app = await startOAuthApp({ issuers: [issuer.issuer], scopesSupported: ['notes:read'], tokenType: 'at+jwt' });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  const flow = useFlows(() => ({ app, issuer }));

  it('discovers, registers and authorizes from the 401 challenge, then calls tools with the token it got', async () => {
    const client = flow();
    const refused = await refusedConnection(client);
    // The challenge, the metadata it points at, the issuer's metadata, registration, then the user's visit.
    expect(client.log.since()).toEqual([
      'POST server /mcp 401',
      `GET server ${prm} 200`,
      asMetadata,
      'POST issuer /register 201',
      'GET issuer /authorize 302',
    ]);
    const clientId = client.provider.information!.client_id;
    expect(client.provider.information).toMatchObject({
      redirect_uris: [REDIRECT_URL],
      scope: 'notes:read notes:write',
    });
    expect(Object.fromEntries(client.provider.authorizationUrls[0]!.searchParams)).toEqual({
      response_type: 'code',
      client_id: clientId,
      code_challenge: expect.any(String),
      code_challenge_method: 'S256',
      redirect_uri: REDIRECT_URL,
      state: expect.any(String),
      scope: 'notes:read notes:write', // the 401's scope, which is also the metadata's scopes_supported
      resource: app.resource,
    });

    await refused.finishAuth(client.provider.code!);
    expect(client.log.since()).toEqual([`GET server ${prm} 200`, asMetadata, 'POST issuer /token 200']);
    const tokens = client.provider.stored!;
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      scope: 'notes:read notes:write',
      refresh_token: expect.any(String),
    });
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      iss: issuer.issuer,
      sub: 'alice',
      aud: app.resource,
      client_id: clientId,
      scope: 'notes:read notes:write',
    });

    const connected = await client.connect();
    expect((await connected.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'write_note']);
    expect(await whoami(connected)).toMatchObject({
      sub: `${issuer.issuer}#alice`,
      clientId,
      scopes: ['notes:read', 'notes:write'],
    });
    expect((await connected.callTool({ name: 'write_note', arguments: {} })).content).toEqual([
      { type: 'text', text: 'written' },
    ]);
    // Authorized, it has nothing more to ask the issuer.
    expect(client.log.since().filter((entry) => entry.includes(' issuer '))).toEqual([]);
  });

  it('refreshes an access token the server refuses as expired, with its refresh token, in the same session', async () => {
    const client = flow();
    await (await refusedConnection(client)).finishAuth(client.provider.code!);
    const transport = client.transport();
    const connected = await client.connect(transport);
    const sessionId = transport.sessionId;
    const before = client.provider.stored!;
    const expired = await issuer.sign(issuer.claims(app.resource, { exp: now() - 120, scope: before.scope }));
    client.provider.stored = { ...before, access_token: expired };
    client.log.since();

    expect(await whoami(connected)).toMatchObject({ sub: `${issuer.issuer}#alice` });
    // Refused (401 invalid_token), it refreshes, and sends the call again: no new authorization.
    expect(withoutStream(client.log.since())).toEqual([
      'POST server /mcp 401',
      `GET server ${prm} 200`,
      asMetadata,
      'POST issuer /token 200',
      'POST server /mcp 200',
    ]);
    expect(issuer.authorization.grants.at(-1)).toBe('refresh_token');
    expect(client.provider.authorizationUrls).toHaveLength(1);
    expect(client.provider.stored!.refresh_token).not.toBe(before.refresh_token); // rotated
    expect(transport.sessionId).toBe(sessionId);
  });
});

describe('mcp42/oauth: the SDK client (v1) and an OpenID provider with a path', () => {
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start({ path: '/tenant1', discovery: 'openid', alg: 'ES256' });
    app = await startOAuthApp({ issuers: [issuer.issuer] });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  const flow = useFlows(() => ({ app, issuer }));

  it('finds its OpenID metadata after the RFC 8414 URL, and authorizes at the tenant', async () => {
    const client = flow();
    const refused = await refusedConnection(client);
    expect(client.log.since()).toEqual([
      'POST server /mcp 401',
      `GET server ${prm} 200`,
      'GET issuer /.well-known/oauth-authorization-server/tenant1 404',
      'GET issuer /.well-known/openid-configuration/tenant1 200',
      'POST issuer /tenant1/register 201',
      'GET issuer /tenant1/authorize 302',
    ]);
    await refused.finishAuth(client.provider.code!);
    const connected = await client.connect();
    expect(await whoami(connected)).toMatchObject({ sub: `${issuer.issuer}#alice`, scopes: ['notes:write'] });
  });
});

describe('mcp42/oauth: the SDK client (v1) on a 403 insufficient_scope (step-up)', () => {
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start({ scopes: ['mcp:use', 'notes:write'] });
    // The endpoint needs mcp:use: a token without it gets 403 insufficient_scope.
    app = await startOAuthApp({ issuers: [issuer.issuer], requiredScopes: ['mcp:use'] });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  beforeEach(() => {
    issuer.authorization.refreshTokens = true;
    issuer.authorization.consent = (requested) => requested;
  });

  const flow = useFlows(() => ({ app, issuer }));

  /** Authorizes the client, its user declining mcp:use this once: its token has notes:write only. */
  async function authorizeWithoutMcpUse(client: Flow): Promise<void> {
    issuer.authorization.consent = (requested) => requested.filter((scope) => scope !== 'mcp:use');
    const refused = await refusedConnection(client);
    expect(client.provider.authorizationUrls[0]!.searchParams.get('scope')).toBe('mcp:use notes:write');
    await refused.finishAuth(client.provider.code!);
    expect(client.provider.stored!.scope).toBe('notes:write');
    issuer.authorization.consent = (requested) => requested;
    client.log.since();
  }

  it('authorizes again for the scopes of the challenge (issuer without refresh tokens), then gets in', async () => {
    issuer.authorization.refreshTokens = false;
    const client = flow();
    await authorizeWithoutMcpUse(client);

    const stepUp = await refusedConnection(client);
    expect(client.log.since()).toEqual([
      'POST server /mcp 403',
      `GET server ${prm} 200`,
      asMetadata,
      'GET issuer /authorize 302',
    ]);
    // The 403 names the required scope and the one already granted, so that the new token loses nothing.
    const again = client.provider.authorizationUrls[1]!.searchParams;
    expect([again.get('scope'), again.get('resource')]).toEqual(['mcp:use notes:write', app.resource]);
    await stepUp.finishAuth(client.provider.code!);

    const connected = await client.connect();
    expect(await whoami(connected)).toMatchObject({ scopes: ['mcp:use', 'notes:write'] });
  });

  it('with a refresh token, refreshes instead, which cannot widen the grant, and gives up at the second 403', async () => {
    const client = flow();
    await authorizeWithoutMcpUse(client);

    const failure: unknown = await client.connect().catch((error: unknown) => error);
    // SDK v1 (1.32): on a 403, auth() uses a stored refresh token before any new authorization, and a
    // refresh cannot widen the grant (RFC 6749 §6): the same 403 comes back, and the SDK stops there.
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect(failure).toMatchObject({ code: 403, message: expect.stringContaining('403 after trying upscoping') });
    expect(client.log.since()).toEqual([
      'POST server /mcp 403',
      `GET server ${prm} 200`,
      asMetadata,
      'POST issuer /token 200',
      'POST server /mcp 403',
    ]);
    expect(issuer.authorization.grants.at(-1)).toBe('refresh_token');
    expect(client.provider.authorizationUrls).toHaveLength(1);
    expect(client.provider.stored!.scope).toBe('notes:write');
  });
});

describe("mcp42/oauth: the SDK client (v1) stepping up for one tool (scopeDenial: 'challenge')", () => {
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start({ scopes: ['notes:read', 'notes:write'] });
    app = await startOAuthApp(
      { issuers: [issuer.issuer], scopesSupported: ['notes:read'] },
      { auth: { scopeDenial: 'challenge' } },
    );
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  const flow = useFlows(() => ({ app, issuer }));

  it('sees write_note without notes:write, is challenged when it calls it, authorizes for it and calls again', async () => {
    issuer.authorization.refreshTokens = false;
    const client = flow();
    // The user grants notes:read only, the first time.
    issuer.authorization.consent = (requested) => requested.filter((scope) => scope !== 'notes:write');
    const refused = await refusedConnection(client);
    await refused.finishAuth(client.provider.code!);
    expect(client.provider.stored!.scope).toBe('notes:read');
    issuer.authorization.consent = (requested) => requested;

    const transport = client.transport();
    const connected = await client.connect(transport);
    expect((await connected.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'write_note']);
    client.log.since();

    // The call's POST gets 403 insufficient_scope for this tool: the SDK authorizes again, for the
    // scopes the challenge names (the tool's, and the one the token holds, so that none is lost).
    await expect(connected.callTool({ name: 'write_note', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(withoutStream(client.log.since())).toEqual([
      'POST server /mcp 403',
      `GET server ${prm} 200`,
      asMetadata,
      'GET issuer /authorize 302',
    ]);
    const again = client.provider.authorizationUrls.at(-1)!.searchParams;
    expect([again.get('scope'), again.get('resource')]).toEqual(['notes:write notes:read', app.resource]);
    await transport.finishAuth(client.provider.code!);

    // The same session goes on with the new token (same principal): the call is served now.
    const result = await connected.callTool({ name: 'write_note', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'written' }]);
    expect(await whoami(connected)).toMatchObject({ scopes: ['notes:write', 'notes:read'] });
  });
});
