import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import { McpExecutionContext, type McpContextType } from './mcp-execution-context.js';
import { executionArgs, type Invocation } from './invocation.js';

const session = { id: 'session-1' } as McpSessionHandle;
const context = { name: 'forecast' } as McpContext;
const request = { user: { sub: 'alice' }, headers: {} };

function invocation(overrides: Partial<Invocation> = {}): Invocation {
  return {
    phase: 'call',
    kind: 'tool',
    name: 'forecast',
    arguments: { city: 'Bern' },
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

class WeatherTools {
  forecast(): string {
    return 'sunny';
  }
}

function host(args: unknown[], type: string): ExecutionContextHost {
  const result = new ExecutionContextHost(args, WeatherTools, WeatherTools.prototype.forecast);
  result.setType(type);
  return result;
}

describe('McpExecutionContext', () => {
  it('exposes a call: phase, tool name, arguments, context, session and the HTTP request', () => {
    const call = invocation();
    const mcp = McpExecutionContext.of(host(executionArgs(call), 'mcp'));
    expect(mcp.phase).toBe('call');
    expect(mcp.name).toBe('forecast');
    expect(mcp.arguments).toBe(call.arguments);
    expect(mcp.context).toBe(context);
    expect(mcp.session).toBe(session);
    expect(mcp.getRequest()).toBe(request);
    expect(mcp.getRequest<typeof request>().user).toEqual({ sub: 'alice' });
  });

  it('reads the granted scopes from the invocation, each time they are asked for', () => {
    let granted = ['weather:read'];
    const mcp = McpExecutionContext.of(host(executionArgs(invocation({ grantedScopes: () => granted })), 'mcp'));
    expect(mcp.grantedScopes).toEqual(['weather:read']);
    granted = ['weather:read', 'alerts:write'];
    expect(mcp.grantedScopes).toEqual(['weather:read', 'alerts:write']);
  });

  it('exposes a listing: no arguments, no context', () => {
    const mcp = McpExecutionContext.of(
      host(executionArgs(invocation({ phase: 'list', arguments: undefined, context: undefined })), 'mcp'),
    );
    expect(mcp.phase).toBe('list');
    expect(mcp.arguments).toBeUndefined();
    expect(mcp.context).toBeUndefined();
    expect(mcp.session).toBe(session);
  });

  it('reads the invocation, not the HTTP request a guard for HTTP would read', () => {
    const execution = host(executionArgs(invocation()), 'mcp');
    expect(execution.switchToHttp().getRequest()).toBe(request);
    expect(McpExecutionContext.of(execution).name).toBe('forecast');
  });

  it.each(['http', 'rpc', 'ws', 'graphql'])('refuses a %s context with a TypeError naming its type', (type) => {
    const execution = host(executionArgs(invocation()), type);
    expect(() => McpExecutionContext.of(execution)).toThrow(TypeError);
    expect(() => McpExecutionContext.of(execution)).toThrow(
      `McpExecutionContext.of: the context is "${type}", not "mcp"`,
    );
  });

  it('refuses an HTTP context of a controller (request, response, next)', () => {
    const execution = host([request, {}, () => undefined], 'http');
    expect(() => McpExecutionContext.of(execution)).toThrow(TypeError);
  });

  it('refuses an "mcp" context that carries no invocation', () => {
    expect(() => McpExecutionContext.of(host([request], 'mcp'))).toThrow(TypeError);
  });

  it('tells MCP contexts from others', () => {
    expect(McpExecutionContext.isMcp(host(executionArgs(invocation()), 'mcp'))).toBe(true);
    expect(McpExecutionContext.isMcp(host(executionArgs(invocation()), 'http'))).toBe(false);
    expect(McpExecutionContext.isMcp(host([request], 'mcp'))).toBe(false);
  });

  it('names the context type for getType<McpContextType>()', () => {
    const type: McpContextType = 'mcp';
    expect(host(executionArgs(invocation()), type).getType<McpContextType>()).toBe('mcp');
  });
});
