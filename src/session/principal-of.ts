/**
 * The default `auth.principalOf`: who a request acts for, from what authentication guards usually
 * set on it, `request.user.sub` (OIDC/JWT subject) or else `request.user.id`.
 * @category Options
 */
export function defaultPrincipalOf(request: unknown): string | undefined {
  const user = (request as { user?: unknown } | null | undefined)?.user;
  if (typeof user !== 'object' || user === null) return undefined;
  const { sub, id } = user as { sub?: unknown; id?: unknown };
  const principal = sub ?? id;
  return typeof principal === 'string' || typeof principal === 'number' ? String(principal) : undefined;
}
