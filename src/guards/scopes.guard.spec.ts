import 'reflect-metadata';
import { jest } from '@jest/globals';
import { ForbiddenException } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { McpPublic } from '../decorators/mcp-public.decorator.js';
import { McpScopes } from '../decorators/mcp-scopes.decorator.js';
import { McpInsufficientScopeException } from '../errors/mcp-insufficient-scope.exception.js';
import { executionArgs, type Invocation } from '../execution/invocation.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import { MCP_SCOPES_METADATA } from '../mcp.constants.js';
import { ScopesGuard } from './scopes.guard.js';
import { defaultScopesOf } from './scopes-of.js';
import { thrownBy } from '../../test/utils/thrown.js';

/** Any class whose methods are tools. */
type Class = abstract new (...args: never[]) => object;

@McpScopes('weather:read')
class WeatherTools {
  forecast(): void {}

  @McpScopes('weather:write', 'alerts:write')
  publishAlert(): void {}

  @McpPublic()
  status(): void {}
}

class OpenTools {
  ping(): void {}

  @McpScopes('admin')
  reset(): void {}
}

@McpPublic()
@McpScopes('never:checked')
class PublicTools {
  hello(): void {}
}

type Method = 'forecast' | 'publishAlert' | 'status';
type ScopesOf = (user: unknown) => readonly string[];

const guard = (): ScopesGuard => new ScopesGuard(new Reflector());

/**
 * The context of a tool call of `classRef.method` by `user`, as the call lifecycle builds it: the granted
 * scopes are `user` read with the module's `scopesOf`.
 */
function contextOf(
  classRef: Class,
  method: string,
  user?: unknown,
  scopesOf: ScopesOf = defaultScopesOf,
  { phase = 'call', scopesWaived = false }: Partial<Pick<Invocation, 'phase' | 'scopesWaived'>> = {},
): ExecutionContextHost {
  const request = user === undefined ? {} : { user };
  const context = new ExecutionContextHost(
    executionArgs({
      phase,
      scopeDenial: 'challenge',
      listing: phase === 'list',
      scopesWaived,
      kind: 'tool',
      name: method,
      arguments: {},
      context: undefined,
      transport: 'http',
      session: {} as McpSessionHandle,
      request,
      grantedScopes: () => scopesOf(user),
    }),
    classRef as never,
    (classRef.prototype as Record<string, (...args: never[]) => unknown>)[method]!,
  );
  context.setType('mcp');
  return context;
}

/** The context of an HTTP route `classRef.method` (a controller method guarded with @McpScopes()). */
function httpContextOf(classRef: Class, method: string, user?: unknown): ExecutionContextHost {
  const request = user === undefined ? {} : { user };
  const context = new ExecutionContextHost(
    [request, {}, () => undefined],
    classRef as never,
    (classRef.prototype as Record<string, (...args: never[]) => unknown>)[method]!,
  );
  context.setType('http');
  return context;
}

const weather = (method: Method, user?: unknown, scopesOf?: ScopesOf): ExecutionContextHost =>
  contextOf(WeatherTools, method, user, scopesOf);

describe('@McpScopes()', () => {
  it('stores the scopes and applies ScopesGuard, on methods and classes', () => {
    expect(Reflect.getMetadata(MCP_SCOPES_METADATA, WeatherTools)).toEqual(['weather:read']);
    expect(Reflect.getMetadata(MCP_SCOPES_METADATA, WeatherTools.prototype.publishAlert)).toEqual([
      'weather:write',
      'alerts:write',
    ]);
    expect(Reflect.getMetadata(GUARDS_METADATA, WeatherTools)).toEqual([ScopesGuard]);
    expect(Reflect.getMetadata(GUARDS_METADATA, WeatherTools.prototype.publishAlert)).toEqual([ScopesGuard]);
    expect(Reflect.getMetadata(GUARDS_METADATA, WeatherTools.prototype.forecast)).toBeUndefined();
  });
});

describe('ScopesGuard', () => {
  it('lets a caller with the class scope call a method without scopes of its own', () => {
    expect(guard().canActivate(weather('forecast', { scope: 'weather:read' }))).toBe(true);
  });

  it('requires the class scope for every method', () => {
    const error = thrownBy(() => guard().canActivate(weather('forecast', { scope: 'other' })));
    expect(error).toBeInstanceOf(ForbiddenException);
    expect(error.message).toBe('Missing scope(s): weather:read');
  });

  it('requires the scopes of the method and of its class together', () => {
    const all = { scope: 'weather:read weather:write alerts:write' };
    expect(guard().canActivate(weather('publishAlert', all))).toBe(true);
    const methodOnly = { scope: 'weather:write alerts:write' };
    expect(thrownBy(() => guard().canActivate(weather('publishAlert', methodOnly))).message).toBe(
      'Missing scope(s): weather:read',
    );
    const classOnly = { scope: 'weather:read' };
    expect(thrownBy(() => guard().canActivate(weather('publishAlert', classOnly))).message).toBe(
      'Missing scope(s): weather:write, alerts:write',
    );
  });

  it('refuses with McpInsufficientScopeException: every scope the call needs, and those missing', () => {
    const error = thrownBy(() => guard().canActivate(weather('publishAlert', { scope: 'weather:read' })));
    expect(error).toBeInstanceOf(McpInsufficientScopeException);
    expect((error as McpInsufficientScopeException).requiredScopes).toEqual([
      'weather:write',
      'alerts:write',
      'weather:read',
    ]);
    expect((error as McpInsufficientScopeException).missingScopes).toEqual(['weather:write', 'alerts:write']);
  });

  it('admits anyone while mcp42 asks again with the scopes waived, in either phase', () => {
    for (const phase of ['list', 'call'] as const) {
      const asked = contextOf(WeatherTools, 'publishAlert', { scope: '' }, defaultScopesOf, {
        phase,
        scopesWaived: true,
      });
      expect(guard().canActivate(asked)).toBe(true);
      const first = contextOf(WeatherTools, 'publishAlert', { scope: '' }, defaultScopesOf, { phase });
      expect(() => guard().canActivate(first)).toThrow(McpInsufficientScopeException);
    }
  });

  it('names every missing scope, method scopes first', () => {
    const error = thrownBy(() => guard().canActivate(weather('publishAlert', { scope: 'alerts:write' })));
    expect(error).toBeInstanceOf(ForbiddenException);
    expect((error as ForbiddenException).getStatus()).toBe(403);
    expect(error.message).toBe('Missing scope(s): weather:write, weather:read');
  });

  it('denies a caller without a user, naming what is missing', () => {
    expect(thrownBy(() => guard().canActivate(weather('forecast'))).message).toBe('Missing scope(s): weather:read');
    expect(() => guard().canActivate(weather('forecast', null))).toThrow(ForbiddenException);
  });

  it('denies when there is no request at all', () => {
    const context = new ExecutionContextHost([], WeatherTools as never, WeatherTools.prototype.forecast);
    expect(() => guard().canActivate(context)).toThrow(ForbiddenException);
  });

  it('exempts a method marked @McpPublic() from the class scopes, without reading any', () => {
    const scopesOf = jest.fn(defaultScopesOf);
    expect(guard().canActivate(weather('status', undefined, scopesOf))).toBe(true);
    expect(guard().canActivate(weather('status', { scope: '' }, scopesOf))).toBe(true);
    expect(scopesOf).not.toHaveBeenCalled();
  });

  it('exempts every method of a class marked @McpPublic()', () => {
    expect(guard().canActivate(contextOf(PublicTools, 'hello'))).toBe(true);
  });

  it('lets anyone through a method of a class without scopes', () => {
    const scopesOf = jest.fn(defaultScopesOf);
    expect(guard().canActivate(contextOf(OpenTools, 'ping', undefined, scopesOf))).toBe(true);
    expect(scopesOf).not.toHaveBeenCalled();
  });

  it('requires the scopes of a method whose class has none', () => {
    expect(guard().canActivate(contextOf(OpenTools, 'reset', { scopes: ['admin'] }))).toBe(true);
    expect(thrownBy(() => guard().canActivate(contextOf(OpenTools, 'reset', { scopes: ['user'] }))).message).toBe(
      'Missing scope(s): admin',
    );
  });

  it('checks the scopes a custom scopesOf grants in an MCP context', () => {
    const user = { roles: ['weather:read', 'weather:write', 'alerts:write'] };
    const scopesOf = jest.fn((who: unknown) => (who as typeof user).roles);
    expect(guard().canActivate(weather('publishAlert', user, scopesOf))).toBe(true);
    expect(scopesOf).toHaveBeenCalledWith(user);
    // The default would find nothing on such a user.
    expect(() => guard().canActivate(weather('publishAlert', user))).toThrow(ForbiddenException);
  });

  it('denies what a custom scopesOf does not grant, whatever the user claims', () => {
    const scopesOf = (): readonly string[] => ['weather:read'];
    const user = { scope: 'weather:read weather:write alerts:write' };
    expect(thrownBy(() => guard().canActivate(weather('publishAlert', user, scopesOf))).message).toBe(
      'Missing scope(s): weather:write, alerts:write',
    );
  });

  it('matches scopes exactly (case and whole words)', () => {
    for (const scope of ['Weather:Read', 'weather:readx', 'weather', 'weather:read:all']) {
      expect(() => guard().canActivate(weather('forecast', { scope }))).toThrow(ForbiddenException);
    }
  });

  it('reads request.user with the default scopesOf on an HTTP route', () => {
    expect(guard().canActivate(httpContextOf(WeatherTools, 'forecast', { scope: 'weather:read' }))).toBe(true);
    expect(
      guard().canActivate(
        httpContextOf(WeatherTools, 'publishAlert', { scp: ['weather:read', 'weather:write', 'alerts:write'] }),
      ),
    ).toBe(true);
    expect(thrownBy(() => guard().canActivate(httpContextOf(WeatherTools, 'forecast', {}))).message).toBe(
      'Missing scope(s): weather:read',
    );
    expect(() => guard().canActivate(httpContextOf(WeatherTools, 'forecast'))).toThrow(ForbiddenException);
    expect(guard().canActivate(httpContextOf(WeatherTools, 'status'))).toBe(true);
  });
});
