/**
 * The authorization endpoints of the loopback issuer refuse what a real authorization server refuses,
 * so that a client's flow passing through them (test/e2e/auth/oauth-sdk-flow.e2e-spec.ts) shows the
 * client did its part: PKCE, the redirect URI, the resource, the scopes, codes used once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AuthorizationEndpoints, type EndpointAnswer } from './oauth-authorization.js';

const ISSUER = 'http://127.0.0.1:1';
const REDIRECT = 'http://127.0.0.1:9/callback';
const RESOURCE = 'http://127.0.0.1:2/mcp';

/** Endpoints whose "signature" is the claims as JSON, so that a test can read them back. */
const endpoints = (scopes?: readonly string[]): AuthorizationEndpoints =>
  new AuthorizationEndpoints({ issuer: ISSUER, mint: async (claims) => JSON.stringify(claims), scopes });

function register(server: AuthorizationEndpoints): string {
  const answer = server.register(JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }));
  expect(answer.status).toBe(201);
  return (answer.body as { client_id: string }).client_id;
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An authorization request's parameters, good unless `changes` says otherwise (`null` drops one). */
function request(clientId: string, challenge: string, changes: Record<string, string | null> = {}): URLSearchParams {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    scope: 'notes:read',
    resource: RESOURCE,
    ...changes,
  };
  return new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** The parameters of the redirect back to the client. */
function redirected(answer: EndpointAnswer): Record<string, string> {
  expect(answer.status).toBe(302);
  const location = new URL(answer.location!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return Object.fromEntries(location.searchParams);
}

const tokenForm = (params: Record<string, string>): URLSearchParams => new URLSearchParams(params);

describe('the loopback issuer: authorization endpoints', () => {
  it('issues a token for the resource and scopes asked, redeeming a code once and only with its verifier', async () => {
    const server = endpoints(['notes:read', 'notes:write']);
    const clientId = register(server);
    const redeem = (code: string, verifier: string): Promise<EndpointAnswer> =>
      server.token(
        tokenForm({
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          code_verifier: verifier,
          redirect_uri: REDIRECT,
        }),
      );

    const first = pkce();
    const { code: wasted } = redirected(server.authorize(request(clientId, first.challenge)));
    expect(await redeem(wasted!, pkce().verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A code tried once is gone, even with its verifier.
    expect(await redeem(wasted!, first.verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const second = pkce();
    const back = redirected(server.authorize(request(clientId, second.challenge, { scope: 'notes:read notes:write' })));
    expect(back).toEqual({ code: expect.any(String), state: 'st' });
    const answer = await redeem(back.code!, second.verifier);
    expect(answer).toMatchObject({
      status: 200,
      body: {
        token_type: 'Bearer',
        scope: 'notes:read notes:write',
        expires_in: 300,
        refresh_token: expect.any(String),
      },
    });
    const claims = JSON.parse((answer.body as { access_token: string }).access_token) as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: ISSUER,
      sub: 'alice',
      aud: RESOURCE,
      client_id: clientId,
      scope: 'notes:read notes:write',
    });
    expect(await redeem(back.code!, second.verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('answers an unknown client or redirect URI itself, and redirects the other refusals with the state', () => {
    const server = endpoints(['notes:read']);
    const clientId = register(server);
    const { challenge } = pkce();
    const told = { status: 400, body: expect.objectContaining({ error: 'invalid_request' }) }; // no location
    expect(server.authorize(request('nobody', challenge))).toEqual(told);
    const elsewhere = server.authorize(request(clientId, challenge, { redirect_uri: 'http://127.0.0.1:9/other' }));
    expect(elsewhere).toEqual(told);

    const refusal = (changes: Record<string, string | null>): string | undefined =>
      redirected(server.authorize(request(clientId, challenge, changes))).error;
    expect(refusal({ response_type: 'token' })).toBe('unsupported_response_type');
    expect(refusal({ code_challenge: null })).toBe('invalid_request');
    expect(refusal({ code_challenge_method: 'plain' })).toBe('invalid_request');
    expect(refusal({ resource: null })).toBe('invalid_target');
    expect(refusal({ resource: 'mcp' })).toBe('invalid_target');
    expect(refusal({ resource: `${RESOURCE}#frag` })).toBe('invalid_target');
    expect(refusal({ scope: 'notes:read admin' })).toBe('invalid_scope');
    expect(redirected(server.authorize(request(clientId, challenge, { scope: 'admin' }))).state).toBe('st');
  });

  it('refuses a code redeemed with another redirect URI, for another resource, or by another client', async () => {
    const server = endpoints();
    const [owner, other] = [register(server), register(server)];
    const attempt = async (changes: Record<string, string>): Promise<unknown> => {
      const { verifier, challenge } = pkce();
      const { code } = redirected(server.authorize(request(owner, challenge)));
      const form = { grant_type: 'authorization_code', client_id: owner, code: code!, code_verifier: verifier };
      return (await server.token(tokenForm({ ...form, redirect_uri: REDIRECT, ...changes }))).body;
    };
    expect(await attempt({ redirect_uri: 'http://127.0.0.1:9/other' })).toMatchObject({ error: 'invalid_grant' });
    expect(await attempt({ resource: 'http://127.0.0.1:2/other' })).toMatchObject({ error: 'invalid_target' });
    expect(await attempt({ client_id: other })).toMatchObject({ error: 'invalid_grant' });
    expect(await attempt({ client_id: 'nobody' })).toMatchObject({ error: 'invalid_client' });
    expect(await attempt({ grant_type: 'password' })).toMatchObject({ error: 'unsupported_grant_type' });
    expect(await attempt({ resource: RESOURCE })).toMatchObject({ token_type: 'Bearer' });
  });

  it('grants what the user consents to, and refreshes that grant, rotated and never widened', async () => {
    const server = endpoints();
    server.consent = (requested) => requested.filter((scope) => scope !== 'notes:write');
    const clientId = register(server);
    const { verifier, challenge } = pkce();
    const { code } = redirected(server.authorize(request(clientId, challenge, { scope: 'notes:read notes:write' })));
    const form = { grant_type: 'authorization_code', client_id: clientId, code: code!, code_verifier: verifier };
    const granted = (await server.token(tokenForm({ ...form, redirect_uri: REDIRECT }))).body as Record<string, string>;
    expect(granted.scope).toBe('notes:read');

    const refresh = (token: string, extra: Record<string, string> = {}): Promise<EndpointAnswer> =>
      server.token(tokenForm({ grant_type: 'refresh_token', client_id: clientId, refresh_token: token, ...extra }));
    expect((await refresh(granted.refresh_token!, { scope: 'notes:read notes:write' })).body).toMatchObject({
      error: 'invalid_scope',
    });
    expect((await refresh(granted.refresh_token!, { resource: 'http://127.0.0.1:2/other' })).body).toMatchObject({
      error: 'invalid_target',
    });
    const renewed = await refresh(granted.refresh_token!, { resource: RESOURCE });
    expect(renewed.body).toMatchObject({ scope: 'notes:read', refresh_token: expect.any(String) });
    expect((await refresh(granted.refresh_token!)).body).toMatchObject({ error: 'invalid_grant' });
    expect(server.grants).toEqual([
      'authorization_code',
      'refresh_token',
      'refresh_token',
      'refresh_token',
      'refresh_token',
    ]);
  });

  it('registers public clients with redirect URIs only', () => {
    const server = endpoints();
    expect(server.register('{')).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(server.register(JSON.stringify({ redirect_uris: [] }))).toMatchObject({
      body: { error: 'invalid_redirect_uri' },
    });
    expect(server.register(JSON.stringify({ redirect_uris: ['/callback'] }))).toMatchObject({
      body: { error: 'invalid_redirect_uri' },
    });
    const confidential = { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' };
    expect(server.register(JSON.stringify(confidential))).toMatchObject({ body: { error: 'invalid_client_metadata' } });
  });
});
