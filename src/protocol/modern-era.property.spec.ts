import fc from 'fast-check';
import { classifyPost } from './era-classifier.js';
import { encodeHeaderValue } from './header-value.js';
import { decodeValue } from './json-rpc.codec.js';
import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams, JsonRpcRequest } from './json-rpc.types.js';
import {
  admitModernParams,
  admitModernRequest,
  ModernRefusal,
  MODERN_METHODS,
  readInputParams,
  type ModernAdmission,
} from './modern-era.js';
import { MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from './protocol-version.js';
import { claimsModernEra, MetaKey, readEnvelope } from './request-envelope.js';

const VERSION = MODERN_PROTOCOL_VERSIONS[0];
const admission: ModernAdmission = {
  supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
  capabilities: {
    tools: {},
    resources: {},
    prompts: {},
    completions: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};
/** The body field `Mcp-Name` mirrors, per method. */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const json = fc.jsonValue({ maxDepth: 3 });
const anyText = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: codeUnit, maxLength: 20 }));
const modernMethod = fc.constantFrom(...MODERN_METHODS);
const method = fc.oneof(modernMethod, fc.constantFrom('initialize', 'ping', 'tools/List', ''), anyText);
/** A well-formed envelope. */
const envelope = fc
  .record(
    {
      capabilities: fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 }),
      clientInfo: fc.record({ name: fc.string({ maxLength: 10 }), version: fc.string({ maxLength: 10 }) }),
      logLevel: fc.constantFrom('debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'),
    },
    { requiredKeys: ['capabilities'] },
  )
  .map(({ capabilities, clientInfo, logLevel }) => ({
    [MetaKey.ProtocolVersion]: VERSION,
    [MetaKey.ClientCapabilities]: capabilities,
    ...(clientInfo === undefined ? {} : { [MetaKey.ClientInfo]: clientInfo }),
    ...(logLevel === undefined ? {} : { [MetaKey.LogLevel]: logLevel }),
  }));
/** `_meta` as anyone may write it: well formed, close to it, or anything. */
const anyMeta = fc.oneof(
  envelope,
  fc.dictionary(fc.constantFrom(...Object.values(MetaKey), 'x'), fc.oneof(json, fc.constant(VERSION)), {
    maxKeys: 5,
  }),
  json,
);
const anyParams: fc.Arbitrary<JsonRpcParams | undefined> = fc.option(
  fc.record(
    {
      _meta: anyMeta,
      name: fc.oneof(anyText, json),
      uri: fc.oneof(anyText, json),
      inputResponses: json,
      requestState: fc.oneof(anyText, json),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);
/** A header reader over any header values, each maybe absent. */
const anyHeaders = fc
  .record({
    version: fc.option(fc.oneof(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), anyText), { nil: undefined }),
    method: fc.option(fc.oneof(modernMethod, anyText), { nil: undefined }),
    name: fc.option(fc.oneof(anyText, fc.string({ unit: 'binary', maxLength: 20 }).map(encodeHeaderValue)), {
      nil: undefined,
    }),
  })
  .map(
    ({ version, method: methodHeader, name }) =>
      (header: string): string | undefined =>
        ({ 'mcp-protocol-version': version, 'mcp-method': methodHeader, 'mcp-name': name })[header],
  );

const requestOf = (name: string, params: JsonRpcParams | undefined, id: number | string = 1): JsonRpcRequest =>
  params === undefined ? { jsonrpc: '2.0', id, method: name } : { jsonrpc: '2.0', id, method: name, params };

describe('modern era properties', () => {
  it('readEnvelope throws nothing but -32602 on any params', () => {
    fc.assert(
      fc.property(anyParams, (params) => {
        try {
          readEnvelope(params);
        } catch (error) {
          expect(error).toBeInstanceOf(JsonRpcError);
          expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('readInputParams and admitModernParams throw nothing but -32602 on any params', () => {
    fc.assert(
      fc.property(modernMethod, anyParams, (name, params) => {
        for (const read of [() => readInputParams(params ?? {}), () => admitModernParams(requestOf(name, params))]) {
          try {
            read();
          } catch (error) {
            expect(error).toBeInstanceOf(JsonRpcError);
            expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('admitModernRequest admits or throws a ModernRefusal (400 or 404, a JSON-RPC error), on any request and headers', () => {
    fc.assert(
      fc.property(method, anyParams, anyHeaders, (name, params, header) => {
        try {
          admitModernRequest(requestOf(name, params), header, admission);
        } catch (error) {
          expect(error).toBeInstanceOf(ModernRefusal);
          const { status, error: rpc } = error as ModernRefusal;
          expect(rpc).toBeInstanceOf(JsonRpcError);
          expect([400, 404]).toContain(status);
          expect(status === 404).toBe(rpc.code === ErrorCode.MethodNotFound);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a conforming request, whatever name or URI it mirrors, is always admitted', () => {
    fc.assert(
      fc.property(modernMethod, envelope, fc.string({ unit: 'binary', maxLength: 40 }), (name, meta, mirrored) => {
        const field = NAME_FIELD[name];
        const params = { _meta: meta, ...(field === undefined ? {} : { [field]: mirrored }) };
        const headers: Record<string, string> = {
          'mcp-protocol-version': VERSION,
          'mcp-method': name,
          ...(field === undefined ? {} : { 'mcp-name': encodeHeaderValue(mirrored) }),
        };
        const admitted = admitModernRequest(requestOf(name, params), (header) => headers[header], admission);
        expect(admitted).toStrictEqual(readEnvelope(params));
      }),
      { numRuns: 200 },
    );
  });

  it('an Mcp-Name that mirrors another value is always refused with 400 and -32020', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(NAME_FIELD)),
        envelope,
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        (name, meta, body, header) => {
          fc.pre(body !== header);
          const params = { _meta: meta, [NAME_FIELD[name]!]: body };
          const headers: Record<string, string> = {
            'mcp-protocol-version': VERSION,
            'mcp-method': name,
            'mcp-name': encodeHeaderValue(header),
          };
          let refusal: unknown;
          try {
            admitModernRequest(requestOf(name, params), (key) => headers[key], admission);
          } catch (error) {
            refusal = error;
          }
          expect(refusal).toBeInstanceOf(ModernRefusal);
          expect((refusal as ModernRefusal).status).toBe(400);
          expect((refusal as ModernRefusal).error.code).toBe(ErrorCode.HeaderMismatch);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('era classifier properties', () => {
  const anyBody = fc.oneof(
    fc.anything({ maxDepth: 3 }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), fc.string()), method, params: anyParams }),
    fc.array(
      fc.record(
        { jsonrpc: fc.constant('2.0'), id: fc.nat(), method, params: anyParams },
        { requiredKeys: ['jsonrpc'] },
      ),
      { maxLength: 4 },
    ),
  );
  const versionHeader = fc.option(fc.oneof(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), anyText), {
    nil: undefined,
  });

  it('classifyPost never throws, and refuses only with 400 and a -32700 or -32600 error', () => {
    fc.assert(
      fc.property(anyBody, versionHeader, fc.boolean(), (value, version, session) => {
        const verdict = classifyPost(decodeValue(value), version, session);
        if (verdict.era === 'refused') {
          expect(verdict.status).toBe(400);
          expect([ErrorCode.ParseError, ErrorCode.InvalidRequest]).toContain(verdict.response.error.code);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a single request or notification is modern exactly when it claims the era or a sessionless modern header names it', () => {
    fc.assert(
      fc.property(
        method,
        anyParams,
        fc.boolean(),
        versionHeader,
        fc.boolean(),
        (name, params, notify, version, session) => {
          const message = notify
            ? { jsonrpc: '2.0', method: name, ...(params === undefined ? {} : { params }) }
            : requestOf(name, params);
          const body = decodeValue(message);
          fc.pre(body.kind === 'single' && body.entry.kind !== 'invalid');
          const verdict = classifyPost(body, version, session);
          const modern = claimsModernEra(params) || (!session && version === VERSION);
          expect(verdict.era).toBe(modern ? 'modern' : 'legacy');
          if (verdict.era === 'modern') expect(verdict.message).toBe(message);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a batch is never modern', () => {
    fc.assert(
      fc.property(
        fc.array(anyBody, { minLength: 1, maxLength: 4 }),
        versionHeader,
        fc.boolean(),
        (batch, version, session) => {
          expect(classifyPost(decodeValue(batch), version, session).era).not.toBe('modern');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a response is always legacy, whatever the headers', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.nat(), fc.string()),
        json,
        versionHeader,
        fc.boolean(),
        (id, result, version, session) => {
          expect(classifyPost(decodeValue({ jsonrpc: '2.0', id, result }), version, session).era).toBe('legacy');
        },
      ),
      { numRuns: 100 },
    );
  });
});
