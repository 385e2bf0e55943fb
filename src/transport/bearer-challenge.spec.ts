import { bearerChallenge } from './bearer-challenge.js';
import { bearerTokenOf } from './bearer-token.js';

describe('bearerChallenge', () => {
  const resourceMetadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

  it('writes the challenge without a token: scope and resource_metadata only', () => {
    expect(bearerChallenge({ scopes: ['a', 'b'], resourceMetadata })).toBe(
      `Bearer scope="a b", resource_metadata="${resourceMetadata}"`,
    );
    expect(bearerChallenge({ scopes: [], resourceMetadata })).toBe(`Bearer resource_metadata="${resourceMetadata}"`);
  });

  it('puts the error first, and escapes what could end a quoted string or the header', () => {
    expect(
      bearerChallenge({ error: 'invalid_token', errorDescription: 'bad "x" \\ y\r\nSet-Cookie: z', resourceMetadata }),
    ).toBe(
      `Bearer error="invalid_token", error_description="bad \\"x\\" \\\\ ySet-Cookie: z", resource_metadata="${resourceMetadata}"`,
    );
  });
});

describe('bearerTokenOf', () => {
  it('reads a token68 after Bearer, in any case of the scheme', () => {
    expect(bearerTokenOf('Bearer abc.DEF-_~+/=')).toBe('abc.DEF-_~+/=');
    expect(bearerTokenOf('bearer  xyz')).toBe('xyz');
  });

  it('tells no bearer token (null) from a broken one (false)', () => {
    expect(bearerTokenOf(undefined)).toBeNull();
    expect(bearerTokenOf('Basic YWxpY2U6c2VjcmV0')).toBeNull();
    expect(bearerTokenOf('Bearerabc')).toBeNull();
    expect(bearerTokenOf('Bearer')).toBe(false);
    expect(bearerTokenOf('Bearer a b')).toBe(false);
    expect(bearerTokenOf('Bearer a"b')).toBe(false);
  });
});
