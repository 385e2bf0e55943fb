/**
 * The endpoint as an OAuth 2.1 resource server (mcp42/oauth), against a real issuer on loopback
 * (test/utils/oauth-issuer.ts): its metadata, its keys, tokens it signs. What passes (a good token,
 * through to a tool), what is refused and how (401/403 and their challenges), the RFC 9728 metadata
 * document, and sessions bound to the token's issuer and subject.
 */
import { bodyOf, exchange, HttpMcpClient } from '../../utils/http-mcp-client.js';
import type { HttpResult } from '../../utils/http-exchange.js';
import { startOAuthApp, type RunningOAuthApp } from '../../utils/oauth-app.js';
import { OAuthIssuer } from '../../utils/oauth-issuer.js';
import { initializeRequest, MCP_POST_HEADERS } from '../../utils/start-app.js';
import { expectRefusal } from '../../utils/refusal.js';

const now = (): number => Math.floor(Date.now() / 1000);

/** POSTs initialize with these headers. */
const initialize = (app: RunningOAuthApp, headers: Record<string, string> = {}): Promise<HttpResult> =>
  exchange(app.mcpUrl, { headers: { ...MCP_POST_HEADERS, ...headers }, body: initializeRequest() });

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** The text of a tools/call result. */
function toolText(reply: HttpResult): string {
  const body = bodyOf(reply);
  expect(body.error).toBeUndefined();
  return (body.result!.content![0] as { text: string }).text;
}

describe('mcp42/oauth: the endpoint as a resource server', () => {
  let issuer: OAuthIssuer;
  let app: RunningOAuthApp;
  let metadataUrl: string;

  beforeAll(async () => {
    issuer = await OAuthIssuer.start();
    app = await startOAuthApp({ issuers: [issuer.issuer], scopesSupported: ['notes:read'], resourceName: 'Notes' });
    metadataUrl = `${app.baseUrl}/.well-known/oauth-protected-resource/mcp`;
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  const token = (claims: Record<string, unknown> = {}): Promise<string> =>
    issuer.sign(issuer.claims(app.resource, claims));

  /** Expects a 401 invalid_token challenge; returns its error_description. */
  function expectInvalidToken(reply: HttpResult): string {
    expectRefusal(reply, 401, { data: { error: 'invalid_token' }, headers: { 'www-authenticate': /^Bearer / } });
    const challenge = String(reply.headers['www-authenticate']);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
    return /error_description="([^"]*)"/.exec(challenge)![1]!;
  }

  describe('the challenge', () => {
    it('answers a request without a token 401, pointing at the metadata and naming the scopes', async () => {
      const reply = await initialize(app);
      expectRefusal(reply, 401, {
        message: 'Unauthorized',
        headers: { 'www-authenticate': `Bearer scope="notes:read notes:write", resource_metadata="${metadataUrl}"` },
      });
    });

    it('answers another scheme as no token, and a Bearer header without a token as an invalid one', async () => {
      const basic = await initialize(app, { authorization: 'Basic YWxpY2U6c2VjcmV0' });
      expect(basic.status).toBe(401);
      expect(basic.headers['www-authenticate']).not.toContain('error=');
      expectInvalidToken(await initialize(app, { authorization: 'Bearer' }));
      expectInvalidToken(await initialize(app, { authorization: 'Bearer a b' }));
    });

    it('guards GET and DELETE too', async () => {
      for (const method of ['GET', 'DELETE'] as const) {
        const reply = await exchange(app.mcpUrl, {
          method,
          headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' },
        });
        expect(reply.status).toBe(401);
        expect(reply.headers['www-authenticate']).toContain('resource_metadata=');
      }
    });
  });

  describe('Protected Resource Metadata (RFC 9728)', () => {
    it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
      'is served without a token at %s',
      async (path) => {
        // fetch rather than httpExchange, which stops reading a GET at its 200 (an SSE stream, for MCP).
        const reply = await fetch(`${app.baseUrl}${path}`, { headers: { accept: 'application/json' } });
        expect(reply.status).toBe(200);
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        expect(reply.headers.get('access-control-allow-origin')).toBe('*');
        expect(await reply.json()).toEqual({
          resource: app.resource,
          authorization_servers: [issuer.issuer],
          // The configured scope, then the one @McpScopes() asks for on a tool.
          scopes_supported: ['notes:read', 'notes:write'],
          bearer_methods_supported: ['header'],
          resource_name: 'Notes',
        });
      },
    );
  });

  describe('a good token', () => {
    it('reaches the tool, as iss#sub with its scopes, and the token is not on request.user', async () => {
      const client = new HttpMcpClient(app.mcpUrl, bearer(await token({ client_id: 'inspector' })));
      await client.initialize();
      const user = JSON.parse(toolText(await client.call('whoami'))) as Record<string, unknown>;
      expect(user).toEqual({
        sub: `${issuer.issuer}#alice`,
        iss: issuer.issuer,
        subject: 'alice',
        scope: 'notes:read',
        scopes: ['notes:read'],
        clientId: 'inspector',
        expiresAt: expect.any(Number),
      });
      expect(JSON.stringify(user)).not.toMatch(/eyJ/);
    });

    it('carries its scopes to @McpScopes(): notes:write is hidden without it, callable with it', async () => {
      const reader = new HttpMcpClient(app.mcpUrl, bearer(await token()));
      await reader.initialize();
      const list = bodyOf(await reader.post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
      expect((list.result!.tools as { name: string }[]).map((tool) => tool.name)).toEqual(['whoami']);

      const writer = new HttpMcpClient(app.mcpUrl, bearer(await token({ scope: 'notes:read notes:write' })));
      await writer.initialize();
      expect(toolText(await writer.call('write_note'))).toBe('written');
    });

    it('is accepted within the clock tolerance (expired 10 s ago, nbf 10 s ahead)', async () => {
      expect((await initialize(app, bearer(await token({ exp: now() - 10 })))).status).toBe(200);
      expect((await initialize(app, bearer(await token({ nbf: now() + 10 })))).status).toBe(200);
    });

    it('may name the resource among several audiences, and in another spelling of the same URI', async () => {
      expect(
        await initialize(app, bearer(await token({ aud: ['https://other.example', app.resource] }))),
      ).toMatchObject({ status: 200 });
      const shouting = app.resource.replace('http://127.0.0.1', 'HTTP://127.0.0.1') + '/';
      expect(await initialize(app, bearer(await token({ aud: shouting })))).toMatchObject({ status: 200 });
    });
  });

  describe('refused tokens (401 invalid_token)', () => {
    it('a token for another resource (audience)', async () => {
      expect(expectInvalidToken(await initialize(app, bearer(await token({ aud: 'https://other.example/mcp' }))))).toBe(
        'The token was not issued for this resource',
      );
      expectInvalidToken(await initialize(app, bearer(await token({ aud: `${app.resource}/other` }))));
      expectInvalidToken(await initialize(app, bearer(await token({ aud: undefined }))));
    });

    it('a token of an issuer not trusted, and one claiming the trusted issuer but signed by another', async () => {
      const stranger = await OAuthIssuer.start();
      try {
        const foreign = await stranger.sign(stranger.claims(app.resource));
        expect(expectInvalidToken(await initialize(app, bearer(foreign)))).toBe(
          'The token is not from a trusted issuer',
        );
        expect(stranger.jwksFetches).toBe(0);
        const forged = await stranger.sign(issuer.claims(app.resource), { header: { kid: issuer.current.kid } });
        expect(expectInvalidToken(await initialize(app, bearer(forged)))).toBe('The token signature is invalid');
      } finally {
        await stranger.close();
      }
    });

    it('an expired token', async () => {
      expect(expectInvalidToken(await initialize(app, bearer(await token({ exp: now() - 60 }))))).toBe(
        'The token has expired',
      );
    });

    it('a token not valid before a time beyond the tolerance', async () => {
      expect(expectInvalidToken(await initialize(app, bearer(await token({ nbf: now() + 120 }))))).toBe(
        'The token is not valid yet',
      );
    });

    it('a token without exp or sub', async () => {
      expectInvalidToken(await initialize(app, bearer(await token({ exp: undefined }))));
      expectInvalidToken(await initialize(app, bearer(await token({ sub: undefined }))));
    });

    it('an unsecured token (alg none)', async () => {
      const unsigned = issuer.unsigned(issuer.claims(app.resource));
      expect(expectInvalidToken(await initialize(app, bearer(unsigned)))).toBe(
        'The token is not signed with an accepted algorithm',
      );
    });

    it('an HS256 token whose HMAC key is the public key (key confusion)', async () => {
      const forged = await issuer.hmacWithPublicKey(issuer.claims(app.resource));
      expect(expectInvalidToken(await initialize(app, bearer(forged)))).toBe(
        'The token is not signed with an accepted algorithm',
      );
    });

    it('a tampered token', async () => {
      const good = await token();
      const [header, , signature] = good.split('.');
      const payload = Buffer.from(JSON.stringify(issuer.claims(app.resource, { scope: 'notes:write' }))).toString(
        'base64url',
      );
      expectInvalidToken(await initialize(app, bearer(`${header}.${payload}.${signature}`)));
      expectInvalidToken(await initialize(app, bearer('not-a-jwt')));
    });
  });

  describe('sessions', () => {
    it("are bound to iss+sub: another subject gets 404 on the first one's session, the same one goes on", async () => {
      const alice = new HttpMcpClient(app.mcpUrl, bearer(await token({ sub: 'alice' })));
      const sessionId = await alice.initialize();

      const bob = new HttpMcpClient(app.mcpUrl, bearer(await token({ sub: 'bob' })));
      bob.sessionId = sessionId;
      expect((await bob.call('whoami')).status).toBe(404);

      // A new token of the same principal (the old one may have expired) keeps the session.
      const again = new HttpMcpClient(app.mcpUrl, bearer(await token({ sub: 'alice', jti: 'second' })));
      again.sessionId = sessionId;
      expect(JSON.parse(toolText(await again.call('whoami')))).toMatchObject({ sub: `${issuer.issuer}#alice` });
    });
  });
});
