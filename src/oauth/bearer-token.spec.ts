import { bearerTokenOf } from './bearer-token.js';

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
