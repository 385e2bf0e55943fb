import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import { executionArgs, type Invocation } from './invocation.js';
import { ParamType } from './param-type.js';
import { InvocationParamsFactory } from './params.factory.js';

const session = { id: 'session-1' } as McpSessionHandle;
const context = { name: 'forecast' } as McpContext;
const request = { user: { sub: 'alice' } };

function invocation(overrides: Partial<Invocation> = {}): Invocation {
  return {
    phase: 'call',
    kind: 'tool',
    name: 'forecast',
    arguments: { city: 'Bern', days: 3 },
    context,
    session,
    transport: 'http',
    request,
    grantedScopes: () => ['weather:read'],
    scopeDenial: 'hide',
    listing: false,
    scopesWaived: false,
    ...overrides,
  };
}

describe('InvocationParamsFactory', () => {
  const factory = new InvocationParamsFactory();

  it('gives @McpArgs() the whole arguments object', () => {
    const call = invocation();
    expect(factory.exchangeKeyForValue(ParamType.Args, undefined, executionArgs(call))).toBe(call.arguments);
  });

  it('gives @McpArgs(property) that property of the arguments', () => {
    const args = executionArgs(invocation());
    expect(factory.exchangeKeyForValue(ParamType.Args, 'city', args)).toBe('Bern');
    expect(factory.exchangeKeyForValue(ParamType.Args, 'days', args)).toBe(3);
    expect(factory.exchangeKeyForValue(ParamType.Args, 'missing', args)).toBeUndefined();
  });

  it('gives @McpArgs(property) nothing while there are no arguments (listing)', () => {
    const args = executionArgs(invocation({ phase: 'list', arguments: undefined, context: undefined }));
    expect(factory.exchangeKeyForValue(ParamType.Args, 'city', args)).toBeUndefined();
    expect(factory.exchangeKeyForValue(ParamType.Args, undefined, args)).toBeUndefined();
  });

  it('gives the whole arguments for non-string data', () => {
    const call = invocation();
    expect(factory.exchangeKeyForValue(ParamType.Args, 0, executionArgs(call))).toBe(call.arguments);
    expect(factory.exchangeKeyForValue(ParamType.Args, { key: 'city' }, executionArgs(call))).toBe(call.arguments);
  });

  it('gives @McpCtx() the call context', () => {
    expect(factory.exchangeKeyForValue(ParamType.Context, undefined, executionArgs(invocation()))).toBe(context);
  });

  it('gives @McpSession() the session', () => {
    expect(factory.exchangeKeyForValue(ParamType.Session, undefined, executionArgs(invocation()))).toBe(session);
  });

  it('reads the invocation at index 3, never the HTTP request at index 0', () => {
    const args = [{ city: 'forged' }, undefined, undefined, invocation()];
    expect(factory.exchangeKeyForValue(ParamType.Args, 'city', args)).toBe('Bern');
  });

  it('gives nothing for a type it does not know (such as Nest route parameter types)', () => {
    const args = executionArgs(invocation());
    for (const type of [0, 3, 99, 103]) {
      expect(factory.exchangeKeyForValue(type, undefined, args)).toBeUndefined();
    }
  });

  it('gives nothing outside an MCP invocation', () => {
    for (const type of Object.values(ParamType)) {
      expect(factory.exchangeKeyForValue(type, undefined, [request])).toBeUndefined();
      expect(factory.exchangeKeyForValue(type, 'city', [])).toBeUndefined();
    }
  });
});
