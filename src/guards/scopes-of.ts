/**
 * The default `auth.scopesOf`: the scopes an authentication guard put on `request.user`, as OAuth
 * access tokens carry them: `scope` (a space-separated string, RFC 8693/9068), else `scopes` or
 * `scp` (an array, or a space-separated string).
 * @category Options
 */
export function defaultScopesOf(user: unknown): readonly string[] {
  if (typeof user !== 'object' || user === null) return [];
  const claims = user as Record<string, unknown>;
  for (const claim of [claims.scope, claims.scopes, claims.scp]) {
    if (typeof claim === 'string') return claim.split(' ').filter((scope) => scope !== '');
    if (Array.isArray(claim)) return claim.filter((scope): scope is string => typeof scope === 'string');
  }
  return [];
}
