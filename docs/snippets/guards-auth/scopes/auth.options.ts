import type { McpAuthOptions } from 'mcp42';

/** What a company's SSO guard puts on `request.user`. */
interface CompanyUser {
  readonly tenant: string;
  readonly employeeId: string;
  readonly roles: readonly string[];
}

const userOf = (request: unknown): CompanyUser | undefined => (request as { user?: CompanyUser }).user;

// #region auth
export const auth: McpAuthOptions = {
  // Sessions, per-principal limits and sealed state belong to this string: tenant and employee,
  // since employee ids repeat across tenants. undefined means anonymous.
  principalOf: (request) => {
    const user = userOf(request);
    return user ? `${user.tenant}/${user.employeeId}` : undefined;
  },
  // @McpScopes() checks roles here instead of an OAuth scope claim.
  scopesOf: (user) => (user as CompanyUser | undefined)?.roles ?? [],
  scopeDenial: 'hide',
};
// #endregion auth
