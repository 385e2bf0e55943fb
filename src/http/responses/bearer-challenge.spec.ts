import { bearerChallenge } from './bearer-challenge.js';

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

  it('leaves out resource_metadata when there is none, and is the bare scheme without any parameter', () => {
    expect(bearerChallenge({ error: 'insufficient_scope', scopes: ['a'] })).toBe(
      'Bearer error="insufficient_scope", scope="a"',
    );
    expect(bearerChallenge({})).toBe('Bearer');
  });
});
