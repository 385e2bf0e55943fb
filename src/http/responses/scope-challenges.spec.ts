import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { insufficientScope } from '../../protocol/insufficient-scope.js';
import { errorResponse, invalidParams } from '../../protocol/json-rpc.errors.js';
import { ScopeChallenges } from './scope-challenges.js';

const CHALLENGE = { auth: { scopeDenial: 'challenge' } } as Pick<ResolvedMcpOptions, 'auth'>;

describe('ScopeChallenges', () => {
  const refusal = errorResponse(1, insufficientScope(['notes:write', 'notes:read'], 'Missing scope(s): notes:write'));

  it('answers a scope refusal with 403 and a Bearer insufficient_scope challenge naming its scopes', () => {
    const metadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
    expect(new ScopeChallenges(CHALLENGE, metadata).answerOf(refusal)).toEqual({
      status: 403,
      headers: {
        'www-authenticate':
          'Bearer error="insufficient_scope", error_description="Missing scope(s): notes:write", ' +
          `scope="notes:write notes:read", resource_metadata="${metadata}"`,
      },
    });
  });

  it('leaves out resource_metadata when the application serves none', () => {
    expect(new ScopeChallenges(CHALLENGE).answerOf(refusal)?.headers).toEqual({
      'www-authenticate':
        'Bearer error="insufficient_scope", error_description="Missing scope(s): notes:write", scope="notes:write notes:read"',
    });
  });

  it('has nothing to say about other responses', () => {
    const challenges = new ScopeChallenges(CHALLENGE, 'https://x.example/m');
    expect(challenges.answerOf(undefined)).toBeUndefined();
    expect(challenges.answerOf({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(challenges.answerOf(errorResponse(1, invalidParams('no')))).toBeUndefined();
  });

  it("never answers 403 with scopeDenial: 'hide', whatever a response looks like", () => {
    expect(
      new ScopeChallenges(
        { auth: { scopeDenial: 'hide' } } as Pick<ResolvedMcpOptions, 'auth'>,
        'https://x.example/m',
      ).answerOf(refusal),
    ).toBeUndefined();
  });
});
