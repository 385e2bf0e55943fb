import { metadataUrlsOf } from './authorization-server-metadata.js';
import { acceptedClaims } from './access-token-claims.js';
import { resolveOAuthOptions } from './resolved-oauth-options.js';
import { TokenRefusal } from './token-refusal.js';

const base = { resource: 'https://mcp.example.com/mcp', issuers: ['https://auth.example.com'] };

describe('resolveOAuthOptions', () => {
  it('applies the defaults and places the metadata document', () => {
    const options = resolveOAuthOptions({ ...base, requiredScopes: ['mcp'], scopesSupported: ['read'] });
    expect(options).toMatchObject({
      resource: 'https://mcp.example.com/mcp',
      metadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      metadataPaths: ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'],
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
      clockToleranceSeconds: 30,
      scopesSupported: ['read', 'mcp'],
      discoverScopes: true,
      jwksCooldownMs: 30_000,
    });
    expect([...options.audiences]).toEqual(['https://mcp.example.com/mcp']);
  });

  it('serves one document for a resource at the root of its host', () => {
    expect(resolveOAuthOptions({ ...base, resource: 'https://mcp.example.com/' }).metadataPaths).toEqual([
      '/.well-known/oauth-protected-resource',
    ]);
  });

  it.each([
    [{ issuers: [] }, /at least one issuer/],
    [{ issuers: ['http://auth.example.com'] }, /must be https/],
    [{ resource: 'mcp.example.com' }, /not an absolute URL/],
    [{ algorithms: ['RS256', 'HS256'] }, /refused: HS256/],
    [{ algorithms: ['none'] }, /refused: none/],
    [{ algorithms: [] }, /asymmetric/],
    [{ clockToleranceSeconds: 3600 }, /between 0 and 300/],
    [{ jwksCooldownMs: -1 }, /jwksCooldownMs/],
    [
      { introspection: { endpoint: 'https://auth.example.com/introspect', clientId: 'c', clientSecret: '' } },
      /clientSecret/,
    ],
    [
      {
        introspection: {
          endpoint: 'https://a.example/i',
          clientId: 'c',
          clientSecret: 's',
          issuer: 'https://x.example',
        },
      },
      /not one of issuers/,
    ],
  ])('refuses at startup %j', (overrides, message) => {
    expect(() => resolveOAuthOptions({ ...base, ...overrides })).toThrow(message);
  });
});

describe('metadataUrlsOf', () => {
  it('tries RFC 8414 then OpenID for an issuer without a path', () => {
    expect(metadataUrlsOf('https://auth.example.com').map(String)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });

  it('inserts the path, then appends OpenID, for an issuer with one', () => {
    expect(metadataUrlsOf('https://auth.example.com/tenant1').map(String)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });
});

describe('acceptedClaims', () => {
  const audiences = new Set(['https://mcp.example.com/mcp']);
  const claims = { sub: 'alice', aud: 'https://mcp.example.com/mcp', exp: 2e9, scope: 'a b', azp: 'cli' };

  it('keeps subject, scopes, client and expiry of a token for this resource', () => {
    expect(acceptedClaims(claims, 'https://auth.example.com', audiences)).toEqual({
      iss: 'https://auth.example.com',
      sub: 'alice',
      scopes: ['a', 'b'],
      clientId: 'cli',
      expiresAt: 2e9,
    });
  });

  it.each([
    [{ aud: 'https://mcp.example.com/other' }],
    [{ aud: ['https://a.example', 42] }],
    [{ aud: undefined }],
    [{ sub: '' }],
    [{ exp: '2000000000' }],
  ])('refuses %j', (overrides) => {
    expect(() => acceptedClaims({ ...claims, ...overrides }, 'https://auth.example.com', audiences)).toThrow(
      TokenRefusal,
    );
  });
});
