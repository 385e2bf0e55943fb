import { McpInsufficientScopeException } from '../errors/mcp-insufficient-scope.exception.js';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import { insufficientScope } from '../protocol/insufficient-scope.js';
import { executionArgs, type ExecutionArgs } from './invocation.js';

/** What an item's guards said: admitted, denied, or refused for missing scopes only so far. */
export type GuardVerdict = boolean | McpInsufficientScopeException;

/**
 * A call refused for missing scopes with `auth.scopeDenial: 'challenge'`: the transport answers it with
 * 403 and `WWW-Authenticate: Bearer error="insufficient_scope"`. A class of its own, so that a
 * resource read can try its other candidates first.
 */
export class ScopeChallengeError extends JsonRpcError {}

/**
 * The verdict of an item's guards under the module's `auth.scopeDenial`. A refusal for missing scopes
 * hides the item ('hide'), or ('challenge') lets a listing show it and a call be challenged, but
 * only when the other guards admit the caller: they are asked again with the scopes waived (the
 * scopes guard, which Nest ran first, kept them from being asked). A subscription or a completion,
 * asking in the `list` phase without listing, needs the scopes.
 * @param ask runs the guards once.
 * @throws ScopeChallengeError for a call to challenge.
 */
export async function decideScopes(
  verdict: GuardVerdict,
  args: ExecutionArgs,
  ask: (args: ExecutionArgs) => Promise<GuardVerdict>,
): Promise<boolean> {
  if (!(verdict instanceof McpInsufficientScopeException)) return verdict;
  const invocation = args[3];
  const shows = invocation.phase === 'call' || invocation.listing;
  if (invocation.scopeDenial !== 'challenge' || invocation.scopesWaived || !shows) return false;
  if ((await ask(executionArgs({ ...invocation, scopesWaived: true }))) !== true) return false;
  if (invocation.phase === 'list') return true;
  throw scopeChallenge(verdict, invocation.grantedScopes());
}

/**
 * The challenge of a refused call. It names the scopes the call needs and those the token holds
 * already: the official SDK client takes a challenge's `scope` as its whole new request rather than
 * adding it to what it had, so naming only the missing ones would make the next token lose the rest.
 */
function scopeChallenge(refusal: McpInsufficientScopeException, granted: readonly string[]): ScopeChallengeError {
  const error = insufficientScope([...new Set([...refusal.requiredScopes, ...granted])], refusal.message);
  return new ScopeChallengeError(error.code, error.message, error.data);
}
