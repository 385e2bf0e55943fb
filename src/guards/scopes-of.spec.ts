import { defaultScopesOf } from './scopes-of.js';

describe('defaultScopesOf', () => {
  it.each([undefined, null, 'weather:read', 42, true])('finds no scopes on a user that is %p', (user) => {
    expect(defaultScopesOf(user)).toEqual([]);
  });

  it('finds no scopes on a user without scope claims', () => {
    expect(defaultScopesOf({ sub: 'alice', roles: ['admin'] })).toEqual([]);
  });

  it('splits the space-separated scope claim of an OAuth token', () => {
    expect(defaultScopesOf({ scope: 'weather:read weather:write' })).toEqual(['weather:read', 'weather:write']);
  });

  it('ignores repeated, leading and trailing spaces', () => {
    expect(defaultScopesOf({ scope: '  a   b ' })).toEqual(['a', 'b']);
    expect(defaultScopesOf({ scope: '' })).toEqual([]);
    expect(defaultScopesOf({ scope: '   ' })).toEqual([]);
  });

  it('splits on spaces only, as RFC 6749 says', () => {
    expect(defaultScopesOf({ scope: 'a,b c\td' })).toEqual(['a,b', 'c\td']);
  });

  it.each(['scopes', 'scp'])('reads the %s claim as an array', (claim) => {
    expect(defaultScopesOf({ [claim]: ['weather:read', 'alerts:write'] })).toEqual(['weather:read', 'alerts:write']);
  });

  it.each(['scopes', 'scp'])('reads the %s claim as a space-separated string', (claim) => {
    expect(defaultScopesOf({ [claim]: 'weather:read alerts:write' })).toEqual(['weather:read', 'alerts:write']);
  });

  it('keeps only the strings of an array claim', () => {
    expect(defaultScopesOf({ scp: ['a', 1, null, { b: 1 }, 'c'] })).toEqual(['a', 'c']);
  });

  it('prefers scope over scopes, and scopes over scp', () => {
    expect(defaultScopesOf({ scope: 'from-scope', scopes: ['from-scopes'], scp: ['from-scp'] })).toEqual([
      'from-scope',
    ]);
    expect(defaultScopesOf({ scopes: ['from-scopes'], scp: ['from-scp'] })).toEqual(['from-scopes']);
  });

  it('falls through a claim that is neither a string nor an array', () => {
    expect(defaultScopesOf({ scope: 42, scopes: { a: true }, scp: 'from-scp' })).toEqual(['from-scp']);
    expect(defaultScopesOf({ scope: null, scopes: undefined })).toEqual([]);
  });

  it('takes an empty scope string as the answer, without falling through', () => {
    expect(defaultScopesOf({ scope: '', scp: ['from-scp'] })).toEqual([]);
  });

  it('returns a fresh array, never the claim itself', () => {
    const scopes = ['a'];
    const found = defaultScopesOf({ scopes });
    expect(found).toEqual(['a']);
    expect(found).not.toBe(scopes);
  });
});
