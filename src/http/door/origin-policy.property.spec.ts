import type { IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { MCP_OPTION_DEFAULTS } from '../../mcp-options.defaults.js';
import { OriginPolicy } from './origin-policy.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const defaults = new OriginPolicy(MCP_OPTION_DEFAULTS.http.allowedOrigins, MCP_OPTION_DEFAULTS.http.allowedHosts);

/** Host names, loopback ones and look-alikes (suffixes, user info, IPv6, case, trailing dots). */
const host = fc.oneof(
  fc.constantFrom('localhost', 'LocalHost', '127.0.0.1', '[::1]', '[::2]', '0.0.0.0', '127.0.0.1.nip.io', 'localhost.'),
  fc.constantFrom('localhost', '127.0.0.1').map((loopback) => `${loopback}.evil.example`),
  fc.constantFrom('localhost@evil.example', 'evil.example@localhost', 'localhost%2e', '127.1', '2130706433'),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6().map((ip) => `[${ip}]`),
);
const port = fc.option(fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.constantFrom('', '*', 'x')), {
  nil: undefined,
});
const origin = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('http', 'https', 'HTTP', 'ws', 'file', 'javascript'),
      host,
      port,
      fc.constantFrom('', '/', '/x?y#z'),
    )
    .map(([scheme, name, p, rest]) => `${scheme}://${name}${p === undefined ? '' : `:${p}`}${rest}`),
  fc.webUrl(),
  fc.constantFrom('null', '', 'localhost:3000', 'http://', '*'),
  fc.string({ unit: codeUnit, maxLength: 40 }),
);
const hostHeader = fc.oneof(
  fc.tuple(host, port).map(([name, p]) => (p === undefined ? name : `${name}:${p}`)),
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.constantFrom('', '[', '[::1', ':', ':3000'),
);
const headerValue = <T>(value: fc.Arbitrary<T>) =>
  fc.option(fc.oneof(value, fc.array(value, { minLength: 1, maxLength: 3 })), { nil: undefined });

/** Exact entries of an allow-list (one ending in ":*" would be an any-port entry). */
const exactEntry = fc.webUrl().filter((url) => !url.endsWith(':*'));

describe('Origin and Host policy properties', () => {
  it('never throws on any Host or Origin header, single or repeated', () => {
    fc.assert(
      fc.property(headerValue(hostHeader), headerValue(origin), (hostValue, originValue) => {
        // Node types these two as strings; a framework may still hand over repeated values as a list.
        const headers = { host: hostValue, origin: originValue } as unknown as IncomingHttpHeaders;
        const refusal = defaults.refusal(headers)?.message;
        expect([undefined, 'Forbidden: Host not allowed', 'Forbidden: Origin not allowed']).toContain(refusal);
      }),
      { numRuns: 200 },
    );
  });

  it('with the defaults, an allowed Origin is http or https on a loopback host, any port', () => {
    fc.assert(
      fc.property(origin, (value) => {
        if (!defaults.allowsOrigin(value)) return;
        const url = new URL(value);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(LOOPBACK.has(url.hostname)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('with the defaults, an allowed Host names a loopback host, any port', () => {
    fc.assert(
      fc.property(hostHeader, (value) => {
        if (!defaults.allowsHost(value)) return;
        const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0]!;
        expect(LOOPBACK.has(name.toLowerCase())).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('with the defaults, every loopback origin and Host is allowed, whatever its port and case', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https', 'HTTP', 'Https'),
        fc.constantFrom('localhost', 'LOCALHOST', '127.0.0.1', '[::1]'),
        fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
        (scheme, name, p) => {
          const authority = p === undefined ? name : `${name}:${p}`;
          expect(defaults.allowsOrigin(`${scheme}://${authority}`)).toBe(true);
          expect(defaults.allowsHost(authority)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('with an exact list, an origin is allowed exactly when its URL origin is one listed', () => {
    fc.assert(
      fc.property(fc.array(exactEntry, { minLength: 1, maxLength: 3 }), origin, (listed, value) => {
        const policy = new OriginPolicy(listed, ['*']);
        let own: string | undefined;
        try {
          own = new URL(value).origin;
        } catch {
          own = undefined;
        }
        const origins = listed.map((entry) => new URL(entry).origin);
        expect(policy.allowsOrigin(value)).toBe(own !== undefined && origins.includes(own));
        for (const entry of listed) expect(policy.allowsOrigin(entry)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
