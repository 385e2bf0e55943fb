import { insufficientScope, scopeShortfallOf } from './insufficient-scope.js';
import { errorResponse, ErrorCode, JsonRpcError } from './json-rpc.errors.js';

describe('insufficientScope', () => {
  it('is a -32000 refusal with the OAuth error, its description and the scopes in data', () => {
    const error = insufficientScope(['files:write', 'files:read'], 'Missing scope(s): files:write');
    expect(error.toErrorObject()).toEqual({
      code: ErrorCode.ServerError,
      message: 'Forbidden: Missing scope(s): files:write',
      data: {
        error: 'insufficient_scope',
        error_description: 'Missing scope(s): files:write',
        scope: 'files:write files:read',
      },
    });
  });

  it('is read back from the response it becomes', () => {
    const response = errorResponse(7, insufficientScope(['a', 'b'], 'why'));
    expect(scopeShortfallOf(response)).toEqual({ scopes: ['a', 'b'], description: 'why' });
  });

  it('finds no shortfall in a result, another error, or a look-alike with another code or shape', () => {
    expect(scopeShortfallOf(undefined)).toBeUndefined();
    expect(scopeShortfallOf({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(scopeShortfallOf(errorResponse(1, new JsonRpcError(ErrorCode.ServerError, 'Forbidden')))).toBeUndefined();
    const data = { error: 'insufficient_scope', error_description: 'x', scope: 'a' };
    expect(scopeShortfallOf(errorResponse(1, new JsonRpcError(ErrorCode.InvalidParams, 'x', data)))).toBeUndefined();
    for (const odd of [
      { ...data, scope: ['a'] },
      { ...data, error: 'invalid_token' },
      { ...data, error_description: 1 },
    ]) {
      expect(scopeShortfallOf(errorResponse(1, new JsonRpcError(ErrorCode.ServerError, 'x', odd)))).toBeUndefined();
    }
  });
});
