import fc from 'fast-check';
import { createMessageResultProblem, elicitResultProblem, listRootsResultProblem } from './client-results.js';
import { readCompleteParams } from './completion-params.js';
import { acceptInitialize, MAX_CLIENT_CAPABILITIES_LENGTH, MAX_INITIALIZE_PARAMS_LENGTH } from './initialize.js';
import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import { readGetPromptParams } from './prompt-params.js';
import { isLegacyProtocolVersion } from './protocol-version.js';
import { readResourceUriParams } from './resource-params.js';
import { isStringMap } from './string-map.js';
import { MAX_LISTEN_URIS, readSubscriptionFilter } from './subscription-filter.js';
import { isAbsoluteUri, MAX_URI_LENGTH } from './uri.js';

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const json = fc.jsonValue({ maxDepth: 3 });
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: codeUnit, maxLength: 20 }));
/** URIs and near misses: schemes, IRIs, control characters, whitespace, over-long ones. */
const uriLike = fc.oneof(
  fc.webUrl(),
  fc
    .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9+.-]{0,6}$/), fc.string({ unit: codeUnit, maxLength: 30 }))
    .map(([scheme, rest]) => `${scheme}:${rest}`),
  fc.constantFrom('file:///a b', 'a:\u0085', 'x:', ':x', '1a:b', `a:${'x'.repeat(MAX_URI_LENGTH)}`),
  text,
);
/** A value nested `depth` arrays deep, as JSON.parse builds it from a small body. */
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

/** Runs `read`; anything it throws must be a JSON-RPC -32602. */
function onlyInvalidParams(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
    return undefined;
  }
}

const SERVER = { serverInfo: { name: 'server', version: '1' }, capabilities: {} };

describe('params readers properties', () => {
  it('isAbsoluteUri never throws, and accepts only a scheme, a colon and no space or control character, within the limit', () => {
    fc.assert(
      fc.property(fc.oneof(uriLike, fc.anything({ maxDepth: 1 })), (value) => {
        if (!isAbsoluteUri(value)) return;
        expect(value.length).toBeLessThanOrEqual(MAX_URI_LENGTH);
        expect(value).toMatch(/^[A-Za-z][A-Za-z0-9+.-]*:/);
        // eslint-disable-next-line no-control-regex -- control characters are what it must refuse
        expect(value).not.toMatch(/[\s\u0000-\u001f\u007f-\u009f]/);
      }),
      { numRuns: 200 },
    );
  });

  it('readResourceUriParams accepts exactly the absolute URIs, and throws nothing but -32602', () => {
    fc.assert(
      fc.property(fc.oneof(uriLike, json), (uri) => {
        const read = onlyInvalidParams(() => readResourceUriParams({ uri }));
        expect(read !== undefined).toBe(isAbsoluteUri(uri));
      }),
      { numRuns: 200 },
    );
  });

  it('readGetPromptParams and readCompleteParams throw nothing but -32602 on any params', () => {
    const stringMap = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 6 }), json), {
      maxKeys: 3,
    });
    const params: fc.Arbitrary<JsonRpcParams> = fc.record(
      {
        name: fc.oneof(text, json),
        arguments: fc.oneof(stringMap, json),
        ref: fc.oneof(
          fc.record({ type: fc.constantFrom('ref/prompt', 'ref/resource', 'x'), name: fc.oneof(text, json) }),
          fc.record({ type: fc.constantFrom('ref/prompt', 'ref/resource'), uri: fc.oneof(uriLike, json) }),
          json,
        ),
        argument: fc.oneof(fc.record({ name: fc.oneof(text, json), value: fc.oneof(text, json) }), json),
        context: fc.oneof(fc.record({ arguments: fc.oneof(stringMap, json) }), json),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(params, (value) => {
        const prompt = onlyInvalidParams(() => readGetPromptParams(value));
        if (prompt !== undefined) {
          expect(typeof value.name).toBe('string');
          expect(value.arguments === undefined || isStringMap(value.arguments)).toBe(true);
        }
        onlyInvalidParams(() => readCompleteParams(value));
      }),
      { numRuns: 200 },
    );
  });

  it('readSubscriptionFilter throws nothing but -32602, and keeps only true flags and distinct absolute URIs', () => {
    const notifications = fc.oneof(
      fc.record(
        {
          toolsListChanged: fc.oneof(fc.boolean(), json),
          promptsListChanged: fc.boolean(),
          resourcesListChanged: fc.boolean(),
          resourceSubscriptions: fc.oneof(fc.array(fc.oneof(uriLike, fc.constant('a:b')), { maxLength: 6 }), json),
          other: json,
        },
        { requiredKeys: [] },
      ),
      json,
    );
    fc.assert(
      fc.property(notifications, (value) => {
        const filter = onlyInvalidParams(() => readSubscriptionFilter({ notifications: value })) as
          Record<string, unknown> | undefined;
        if (filter === undefined) return;
        for (const [key, flag] of Object.entries(filter)) {
          if (key === 'resourceSubscriptions') {
            const uris = flag as string[];
            expect(uris.length).toBeGreaterThan(0);
            expect(uris.length).toBeLessThanOrEqual(MAX_LISTEN_URIS);
            expect(new Set(uris).size).toBe(uris.length);
            expect(uris.every(isAbsoluteUri)).toBe(true);
          } else {
            expect(flag).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('acceptInitialize throws nothing but -32602 on any params, and keeps a bounded summary of the client', () => {
    const clientInfo = fc.record(
      {
        name: fc.oneof(fc.string({ maxLength: 300 }), json),
        version: fc.oneof(fc.string({ maxLength: 10 }), json),
        title: fc.string({ maxLength: 300 }),
        icons: json,
      },
      { requiredKeys: [] },
    );
    const params = fc.option(
      fc.record(
        {
          protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-03-26', '2026-07-28'), text, json),
          capabilities: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 4 }), json),
          clientInfo: fc.oneof(clientInfo, json),
          padding: fc.oneof(
            json,
            fc.nat({ max: 3 }).map((k) => 'x'.repeat(k * (MAX_INITIALIZE_PARAMS_LENGTH / 2))),
          ),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    );
    fc.assert(
      fc.property(params, (value) => {
        const handshake = onlyInvalidParams(() => acceptInitialize(value, SERVER)) as
          ReturnType<typeof acceptInitialize> | undefined;
        if (handshake === undefined) return;
        expect(isLegacyProtocolVersion(handshake.protocolVersion)).toBe(true);
        expect(JSON.stringify(handshake.clientCapabilities).length).toBeLessThanOrEqual(MAX_CLIENT_CAPABILITIES_LENGTH);
        for (const field of Object.values(handshake.clientInfo))
          expect((field as string).length).toBeLessThanOrEqual(256);
      }),
      { numRuns: 200 },
    );
  });

  // JSON.parse takes any depth, JSON.stringify does not: a small body can nest thousands of levels.
  it('acceptInitialize throws nothing but -32602 on params nested deeper than JSON.stringify can walk', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.boolean(), (depth, inCapabilities) => {
        const deep = nested(depth);
        const params: JsonRpcParams = {
          protocolVersion: '2025-11-25',
          capabilities: inCapabilities ? { experimental: deep } : {},
          clientInfo: { name: 'client', version: '1' },
          ...(inCapabilities ? {} : { extra: deep }),
        };
        onlyInvalidParams(() => acceptInitialize(params, SERVER));
      }),
      { numRuns: 30, examples: [[10_000, false]] },
    );
  });

  it('the checks of client answers never throw, and say either nothing or what is wrong', () => {
    const answer = fc.oneof(
      fc.record(
        {
          action: fc.constantFrom('accept', 'decline', 'cancel', 'x'),
          content: json,
          role: fc.constantFrom('user', 'assistant', 'system'),
          model: fc.oneof(fc.string({ maxLength: 8 }), json),
          roots: fc.oneof(fc.array(fc.oneof(fc.record({ uri: fc.oneof(text, json) }), json), { maxLength: 3 }), json),
        },
        { requiredKeys: [] },
      ),
      fc.anything({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(answer, (value) => {
        for (const check of [elicitResultProblem, createMessageResultProblem, listRootsResultProblem]) {
          const problem = check(value);
          expect(problem === undefined || (typeof problem === 'string' && problem.length > 0)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
