import { MCP_OPTION_DEFAULTS } from '../../mcp-options.defaults.js';
import { OriginPolicy } from './origin-policy.js';

const defaults = (): OriginPolicy =>
  new OriginPolicy(MCP_OPTION_DEFAULTS.http.allowedOrigins, MCP_OPTION_DEFAULTS.http.allowedHosts);

describe('OriginPolicy with the default lists', () => {
  const policy = defaults();

  it.each([
    'http://localhost',
    'http://localhost:3000',
    'https://localhost:8443',
    'http://127.0.0.1:1',
    'https://127.0.0.1',
    'http://127.0.0.1:65535',
    'http://[::1]:3000',
    'https://[::1]',
    'HTTP://LOCALHOST:3000',
  ])('allows the loopback origin %s', (origin) => {
    expect(policy.allowsOrigin(origin)).toBe(true);
  });

  it.each([
    'https://evil.example',
    'http://localhost.evil.example:3000',
    'http://127.0.0.1.nip.io',
    'http://evil.example@localhost.evil.example',
    'http://localhost@evil.example:3000',
    'http://[::2]:3000',
    'http://0.0.0.0:3000',
    'http://192.168.1.10:3000',
    'ws://localhost:3000',
    'file://localhost',
  ])('refuses the foreign origin %s', (origin) => {
    expect(policy.allowsOrigin(origin)).toBe(false);
  });

  it('allows a request without Origin (no browser page sent it)', () => {
    expect(policy.allowsOrigin(undefined)).toBe(true);
  });

  it('refuses the opaque origin "null", an empty Origin and garbage', () => {
    expect(policy.allowsOrigin('null')).toBe(false);
    expect(policy.allowsOrigin('')).toBe(false);
    expect(policy.allowsOrigin('localhost:3000')).toBe(false);
    expect(policy.allowsOrigin('not a url')).toBe(false);
    expect(policy.allowsOrigin('http://')).toBe(false);
  });

  it.each(['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:8080', '[::1]', '[::1]:3000', 'LocalHost:3000'])(
    'allows the loopback Host %s',
    (host) => {
      expect(policy.allowsHost(host)).toBe(true);
    },
  );

  it.each(['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.2', '[::2]:3000', '::1', '0.0.0.0'])(
    'refuses the foreign Host %s',
    (host) => {
      expect(policy.allowsHost(host)).toBe(false);
    },
  );

  it('refuses a missing or empty Host', () => {
    expect(policy.allowsHost(undefined)).toBe(false);
    expect(policy.allowsHost('')).toBe(false);
  });
});

describe('OriginPolicy verdicts it keeps', () => {
  it('gives the same Origin and Host verdicts every time, for more values than it keeps and for long ones', () => {
    const policy = defaults();
    const origins = Array.from({ length: 600 }, (_, i) =>
      i % 2 === 0 ? `http://localhost:${i}` : `http://evil${i}.example${'/'.repeat(i % 3 === 0 ? 300 : 0)}`,
    );
    for (let pass = 0; pass < 3; pass++) {
      for (const [i, origin] of origins.entries())
        expect([origin, policy.allowsOrigin(origin)]).toEqual([origin, i % 2 === 0]);
    }
    const hosts = Array.from({ length: 600 }, (_, i) =>
      i % 2 === 0 ? `LocalHost:${i}` : `evil${i}.example${'x'.repeat(i % 3 === 0 ? 300 : 0)}`,
    );
    for (let pass = 0; pass < 3; pass++) {
      for (const [i, host] of hosts.entries()) expect([host, policy.allowsHost(host)]).toEqual([host, i % 2 === 0]);
    }
    // A policy with other lists keeps verdicts of its own.
    const other = new OriginPolicy(['https://evil1.example'], ['localhost']);
    expect(other.allowsOrigin('http://evil1.example')).toBe(false);
    expect(other.allowsOrigin('https://evil1.example')).toBe(true);
    expect(policy.allowsOrigin('https://evil1.example')).toBe(false);
    expect(other.allowsHost('LocalHost:0')).toBe(true);
    expect(other.allowsHost('127.0.0.1:0')).toBe(false);
    expect(policy.allowsHost('127.0.0.1:0')).toBe(true);
  });
});

describe('OriginPolicy with configured origins', () => {
  it('matches exact origins after normalising the default port, case and a trailing slash', () => {
    const policy = new OriginPolicy(['https://a.com:443', 'HTTP://B.COM:80/', 'http://c.com:8080'], []);
    expect(policy.allowsOrigin('https://a.com')).toBe(true);
    expect(policy.allowsOrigin('https://a.com:443')).toBe(true);
    expect(policy.allowsOrigin('http://b.com')).toBe(true);
    expect(policy.allowsOrigin('http://c.com:8080')).toBe(true);
  });

  it('matches an exact origin given without port against the same origin with its default port', () => {
    const policy = new OriginPolicy(['https://a.com'], []);
    expect(policy.allowsOrigin('https://a.com:443')).toBe(true);
    expect(policy.allowsOrigin('https://A.com')).toBe(true);
  });

  it('keeps scheme and port of an exact origin significant', () => {
    const policy = new OriginPolicy(['https://a.com', 'http://c.com:8080'], []);
    expect(policy.allowsOrigin('http://a.com')).toBe(false);
    expect(policy.allowsOrigin('https://a.com:8443')).toBe(false);
    expect(policy.allowsOrigin('http://c.com')).toBe(false);
    expect(policy.allowsOrigin('http://c.com:8081')).toBe(false);
    expect(policy.allowsOrigin('https://sub.a.com')).toBe(false);
  });

  it('lets an any-port entry match every port, and the default port, of that scheme and host only', () => {
    const policy = new OriginPolicy(['https://app.example:*'], []);
    expect(policy.allowsOrigin('https://app.example')).toBe(true);
    expect(policy.allowsOrigin('https://app.example:1234')).toBe(true);
    expect(policy.allowsOrigin('https://APP.example:9')).toBe(true);
    expect(policy.allowsOrigin('http://app.example:1234')).toBe(false);
    expect(policy.allowsOrigin('https://other.example:1234')).toBe(false);
  });

  it('allows every origin with "*", even "null" and garbage', () => {
    const policy = new OriginPolicy(['*'], []);
    expect(policy.allowsOrigin('https://anything.example')).toBe(true);
    expect(policy.allowsOrigin('null')).toBe(true);
    expect(policy.allowsOrigin('garbage')).toBe(true);
    expect(policy.allowsOrigin(undefined)).toBe(true);
  });

  it('allows no browser origin with an empty list, but still requests without Origin', () => {
    const policy = new OriginPolicy([], []);
    expect(policy.allowsOrigin('http://localhost:3000')).toBe(false);
    expect(policy.allowsOrigin(undefined)).toBe(true);
  });
});

describe('OriginPolicy with configured hosts', () => {
  it('compares host names case-insensitively, with the port ignored', () => {
    const policy = new OriginPolicy([], ['Api.Example.com']);
    expect(policy.allowsHost('api.example.com')).toBe(true);
    expect(policy.allowsHost('API.EXAMPLE.COM:8443')).toBe(true);
    expect(policy.allowsHost('example.com')).toBe(false);
    expect(policy.allowsHost('api.example.com.evil.example')).toBe(false);
  });

  it('reads bracketed IPv6 hosts with and without port', () => {
    const policy = new OriginPolicy([], ['[fe80::1]']);
    expect(policy.allowsHost('[fe80::1]')).toBe(true);
    expect(policy.allowsHost('[FE80::1]:443')).toBe(true);
    expect(policy.allowsHost('[fe80::2]:443')).toBe(false);
  });

  it('allows any Host, even a missing one, with "*"', () => {
    const policy = new OriginPolicy([], ['*']);
    expect(policy.allowsHost('anything.example:1')).toBe(true);
    expect(policy.allowsHost(undefined)).toBe(true);
  });

  it('refuses every Host with an empty list', () => {
    expect(new OriginPolicy([], []).allowsHost('localhost')).toBe(false);
  });

  it('keeps the two lists apart', () => {
    const policy = new OriginPolicy(['*'], ['localhost']);
    expect(policy.allowsHost('evil.example')).toBe(false);
    const hostsOpen = new OriginPolicy(['http://localhost:*'], ['*']);
    expect(hostsOpen.allowsOrigin('https://evil.example')).toBe(false);
  });
});

describe('OriginPolicy.refusal', () => {
  const policy = defaults();

  it('names the Host first, then the Origin, and nothing when both are allowed', () => {
    expect(policy.refusal({ host: 'evil.example', origin: 'https://evil.example' })).toEqual({
      message: 'Forbidden: Host not allowed',
      value: 'evil.example',
      option: 'allowedHosts',
    });
    expect(policy.refusal({ host: 'localhost:3000', origin: 'https://evil.example' })).toEqual({
      message: 'Forbidden: Origin not allowed',
      value: 'https://evil.example',
      option: 'allowedOrigins',
    });
    expect(policy.refusal({ host: 'localhost:3000', origin: 'http://localhost:3000' })).toBeUndefined();
    expect(policy.refusal({ host: '127.0.0.1' })).toBeUndefined();
    expect(policy.refusal({})).toEqual({
      message: 'Forbidden: Host not allowed',
      value: undefined,
      option: 'allowedHosts',
    });
  });
});
