/**
 * HTTP-level fuzzing of a live endpoint on loopback (issue: fuzz the transport), on Express and on
 * Fastify:
 * - thousands of generated malformed requests of both protocol eras, at most 20 at a time on kept-alive
 *   connections: every method; Content-Type and Accept variants (missing, wrong, odd parameters,
 *   huge); bodies of random bytes, broken UTF-8, truncated JSON, deep nesting, huge numbers, wrong
 *   JSON-RPC shapes, batches of junk, requests with wrong param types, unknown methods, ids of every
 *   type; junk, huge and base64-sentinel values in every MCP header, with the ids of three real
 *   sessions mixed in; requests right but for one thing; one in twenty given up by its client;
 * - raw bytes no HTTP client would write (broken framing, control and non-UTF-8 bytes in heads,
 *   pipelining, mutated requests);
 * - sessions used, cancelled, resumed, abandoned and ended by concurrent requests.
 * No answer may be a 5xx, none may take longer than 5 s (a hang), none may show a stack frame, a file
 * path or an error's internals, and nothing may be logged as failed; afterwards the abused sessions
 * and the application still serve.
 *
 * Inputs come from fast-check with one seed per run, printed with the run's summary and with every
 * failure: `FUZZ_SEED=<seed>` runs the same inputs again. `FUZZ_RUNS`, `FUZZ_RAW_RUNS` and
 * `FUZZ_BURSTS` set how many; `FUZZ_VERBOSE=1` prints every kind of answer seen, the slowest
 * requests and what the application logged.
 */
import { Injectable, Logger } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import fc from 'fast-check';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpModule, McpTool, type McpContext } from '../../../src/index.js';
import {
  describeRequest,
  fuzzExchange,
  leaksIn,
  rawExchange,
  runPool,
  sentText,
  Tally,
  type FuzzOutcome,
  type FuzzRequest,
  type RawOutcome,
} from '../../utils/http-fuzz.js';
import { base64Sentinel, headerValueOf, Meta, MODERN_VERSION } from '../../utils/modern-client.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { openSession } from '../../utils/open-session.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, TEST_ADAPTER, type RunningApp } from '../../utils/start-app.js';

const SEED = process.env.FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const RAW_RUNS = Number(process.env.FUZZ_RAW_RUNS ?? 150);
const BURSTS = Number(process.env.FUZZ_BURSTS ?? 40);
/** Per test: ample for the default counts, and grows with larger ones. */
const TEST_TIMEOUT_MS = 60_000 + 20 * (RUNS + RAW_RUNS + 10 * BURSTS);
const CONCURRENCY = 20;
/** Past this an exchange is a hang (an answer that never comes; room for a loaded 2-core CI machine). */
const REQUEST_TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The deepest nesting sent (in one request; generated ones go to 50 000 levels). */
const DEEP_LEVELS = 500_000;

// ---------------------------------------------------------------------------------------------
// The application: tools with argument checks (a class-validator DTO, a JSON Schema whose arguments
// are mirrored into Mcp-Param-* headers), and tools that report progress (answered as SSE when the
// caller asked for progress), one of them for a while, until it is done or its call aborted.

class EchoArgs {
  @IsString()
  @MaxLength(2000)
  text!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3)
  times?: number;
}

const LOOKUP_INPUT = {
  type: 'object' as const,
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    limit: { type: 'integer', 'x-mcp-header': 'Limit' },
    exact: { type: 'boolean', 'x-mcp-header': 'Exact' },
  },
  required: ['region'],
};

class SlowArgs {
  @IsInt()
  @Min(0)
  @Max(300)
  ms!: number;
}

@Injectable()
class FuzzTools {
  @McpTool({ name: 'echo', description: 'Echoes its text', input: EchoArgs })
  echo(args: EchoArgs): string {
    return `echo: ${args.text.repeat(args.times ?? 1)}`;
  }

  @McpTool({ name: 'lookup', description: 'Looks in a region (mirrored into Mcp-Param-*)', input: LOOKUP_INPUT })
  lookup({ region, limit }: { region: string; limit?: number }): string {
    return `region=${region} limit=${String(limit)}`;
  }

  @McpTool({
    name: 'slow',
    description: 'Answers after `ms` milliseconds, or once its call is aborted',
    input: SlowArgs,
  })
  async slow({ ms }: SlowArgs, ctx: McpContext): Promise<string> {
    ctx.reportProgress({ progress: 0, total: ms });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      const stop = (): void => {
        clearTimeout(timer);
        resolve();
      };
      if (ctx.signal.aborted) stop();
      else ctx.signal.addEventListener('abort', stop, { once: true });
    });
    ctx.reportProgress({ progress: ms, total: ms });
    return `slept ${ms} ms`;
  }

  @McpTool({ name: 'steps', description: 'Reports progress twice, then answers' })
  async steps(_args: object, ctx: McpContext): Promise<string> {
    for (let step = 1; step <= 2; step++) {
      ctx.reportProgress({ progress: step, total: 2 });
      await new Promise((resolve) => setImmediate(resolve));
    }
    return 'two steps done';
  }
}

const fuzzModule = { imports: [McpModule.forRoot({ name: 'fuzz', version: '1.0.0' })], providers: [FuzzTools] };

// ---------------------------------------------------------------------------------------------
// Generators.

/** A 2025 session the fuzzing abuses: its id is mixed into the requests. */
interface AbusedSession {
  readonly id: string;
  readonly version: string;
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Characters Node's client writes in a header value (latin1 ones go out as UTF-8 bytes). */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
);
const headerText = (maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: headerChar.map((code) => String.fromCharCode(code)), maxLength });
/** An RFC 9110 token (a header name), never one that frames the message. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade', 'host', 'te']);
const token = fc
  .stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,40}$/)
  .filter((name) => !FRAMING.has(name.toLowerCase()));
/** Any text, lone surrogates included. */
const anyText = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength }),
  );

/** The base64 sentinel, valid or broken. */
const sentinel = fc.oneof(
  anyText(40).map(base64Sentinel),
  fc.base64String({ maxLength: 40 }).map((b64) => `=?base64?${b64}?=`),
  headerText(40).map((junk) => `=?base64?${junk}?=`),
  fc.constantFrom(
    '=?base64??=',
    '=?base64?',
    '?=',
    '=?base64?=?=',
    '=?BASE64?ZWNobw==?=',
    '=?base64?ZWNobw?=',
    '=?base64?ZWNobx==?=',
    '=?base64?/w==?=',
    '=?base64?7aCA?=',
    '=?base64?77u/ZWNobw==?=',
    '=?base64?AA==?=',
    `=?base64?${'QUFB'.repeat(2000)}?=`,
  ),
);

/** Junk of a modest size, for headers that come in numbers. */
const smallJunk = fc.oneof(
  { weight: 5, arbitrary: headerText(60) },
  { weight: 3, arbitrary: sentinel.filter((value) => value.length < 200) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      'undefined',
      '__proto__',
      'constructor',
      '0',
      '-1',
      '1e999',
      'NaN',
      ',',
    ),
  },
);

/** Junk for any header, sometimes large (a few headers of it stay under Node's 16 KiB head limit). */
const junkValue = fc.oneof(
  { weight: 10, arbitrary: smallJunk },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 6000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 1500 }).map((n) => 'é'.repeat(n)) },
);

const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
const versionHeader = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...LEGACY_VERSIONS, MODERN_VERSION) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: junkValue },
  { weight: 1, arbitrary: fc.constantFrom('2026-07-29', '2025-06-18 ', '2026-07-28, 2025-06-18', 'DRAFT-2026-v1') },
);

const ACCEPT_OK = 'application/json, text/event-stream';
const acceptHeader = fc.oneof(
  { weight: 8, arbitrary: fc.constant(ACCEPT_OK) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'application/json',
      'text/event-stream',
      '*/*',
      'application/*, text/*',
      'text/event-stream, application/json;q=0',
      'application/json;q=0.5, text/event-stream;q=0.001',
      'application/json;q=abc, text/event-stream;;;',
      'APPLICATION/JSON, TEXT/EVENT-STREAM',
      'application/json,text/event-stream,*/*;q=0',
      'application/jsonx, text/event-streams',
      ';;;,,,',
      '*/*;q=0',
      'text/html',
    ),
  },
  { weight: 2, arbitrary: junkValue },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 700 }).map((n) => `${'text/plain;q=0.1, '.repeat(n)}${ACCEPT_OK}`),
  },
);

const CONTENT_TYPE_OK = 'application/json';
const contentTypeHeader = fc.oneof(
  { weight: 8, arbitrary: fc.constant(CONTENT_TYPE_OK) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'text/plain',
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'application/json;;;',
      'application/json; =; ==; charset',
      'application/json-rpc',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/*',
      'application/json, text/plain',
      ' application/json ',
    ),
  },
  { weight: 2, arbitrary: junkValue },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 1500 }).map((n) => `application/json${'; a=b'.repeat(n)}`) },
);

const lastEventId = fc.oneof(
  fc.constantFrom('g-0', 'g-1', 'g-2', 'p1-0', 'p1-1', 'p2-3', 'p99999-5', 'p1.abcdefghijkl-1', 'g-99999999999999999'),
  fc.constantFrom('g--1', 'p0-1', 'p-1', 'g-', '-', 'x-1', 'g-1-1', 'p1.ABC-1', 'p01-1', 'g-01'),
  fc.stringMatching(/^(g|p[0-9]{1,17})(\.[0-9a-z]{12})?-[0-9]{1,17}$/),
  junkValue,
);

const requestId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.integer() },
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: anyText(30) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -0,
      1.5,
      -1,
      2 ** 53,
      2 ** 53 + 2,
      1e308,
      -1e308,
      '',
      '0',
      '__proto__',
    ),
  },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

const KNOWN_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'logging/setLevel',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'server/discover',
  'subscriptions/listen',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/message',
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
  'tasks/get',
];
const method = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...KNOWN_METHODS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'rpc.discover',
      '$/cancelRequest',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'TOOLS/CALL',
      'tools/call ',
      'tools//call',
      'tools/call/',
      'notifications/',
      'notifications/__proto__',
      'x'.repeat(10_000),
    ),
  },
  { weight: 2, arbitrary: anyText(40) },
);

const jsonJunk = fc.jsonValue({ maxDepth: 3 });
const anyObject = fc.dictionary(fc.string({ maxLength: 12 }), jsonJunk, { maxKeys: 6 });

/** `arguments` of a call: right ones, wrong types, junk. */
const toolArguments: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ text: fc.string({ maxLength: 50 }) }),
  fc.record({ text: anyText(50), times: fc.oneof(fc.integer({ min: -2, max: 6 }), jsonJunk) }, { requiredKeys: [] }),
  fc.record({ region: fc.oneof(fc.string({ maxLength: 20 }), jsonJunk), limit: jsonJunk, exact: jsonJunk }),
  fc.record({ text: jsonJunk }),
  anyObject,
  jsonJunk,
  fc.constant(undefined),
);

/** Params of a call of one of the tools (or of none). */
const callParams = fc.record(
  {
    name: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('echo', 'lookup', 'steps', 'slow') },
      { weight: 2, arbitrary: fc.oneof(anyText(30), fc.constantFrom('ECHO', 'echo ', '__proto__', 'constructor')) },
      { weight: 1, arbitrary: jsonJunk },
    ),
    arguments: toolArguments,
  },
  { requiredKeys: [] },
);

/** Params for `method`: the right shape often, wrong types and junk just as often. */
const paramsFor = (m: string): fc.Arbitrary<unknown> => {
  const right: Record<string, fc.Arbitrary<unknown>> = {
    initialize: fc.record(
      {
        protocolVersion: fc.oneof(fc.constantFrom(...LEGACY_VERSIONS, MODERN_VERSION), jsonJunk),
        capabilities: fc.oneof(fc.constant({}), jsonJunk, anyObject),
        clientInfo: fc.oneof(fc.constant({ name: 'fuzz', version: '1' }), jsonJunk),
      },
      { requiredKeys: [] },
    ),
    'tools/call': callParams,
    'logging/setLevel': fc.record({ level: fc.oneof(fc.constantFrom('debug', 'info', 'emergency', 'loud'), jsonJunk) }),
    'resources/read': fc.record({ uri: fc.oneof(fc.webUrl(), anyText(40), jsonJunk) }),
    'resources/subscribe': fc.record({ uri: fc.oneof(fc.webUrl(), anyText(40), jsonJunk) }),
    'prompts/get': fc.record({ name: fc.oneof(anyText(20), jsonJunk), arguments: fc.oneof(anyObject, jsonJunk) }),
    'completion/complete': fc.record({
      ref: fc.oneof(fc.record({ type: fc.constantFrom('ref/prompt', 'ref/resource', 'x'), name: jsonJunk }), jsonJunk),
      argument: fc.oneof(fc.record({ name: jsonJunk, value: jsonJunk }), jsonJunk),
    }),
    'tools/list': fc.record({ cursor: fc.oneof(anyText(40), jsonJunk) }, { requiredKeys: [] }),
    'notifications/cancelled': fc.record({ requestId, reason: jsonJunk }, { requiredKeys: [] }),
    'notifications/progress': fc.record({ progressToken: requestId, progress: jsonJunk }, { requiredKeys: [] }),
    'subscriptions/listen': fc.record({ notifications: fc.oneof(anyObject, jsonJunk) }, { requiredKeys: [] }),
  };
  return fc.oneof(
    { weight: 3, arbitrary: Object.hasOwn(right, m) ? right[m]! : anyObject },
    { weight: 2, arbitrary: anyObject },
  );
};

/** A `_meta` envelope: the 2026-07-28 one (right or subtly wrong), a random one, or none. */
const meta: fc.Arbitrary<Record<string, unknown> | undefined> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record(
        {
          version: fc.oneof(
            { weight: 6, arbitrary: fc.constant(MODERN_VERSION) },
            { weight: 1, arbitrary: fc.constantFrom(...LEGACY_VERSIONS, '2026-07-29', '', null, 20260728) },
            { weight: 1, arbitrary: jsonJunk },
          ),
          capabilities: fc.oneof(
            fc.constant({ elicitation: {}, sampling: {}, roots: { listChanged: true } }),
            fc.constant({}),
            fc.constant(undefined),
            jsonJunk,
            fc.record({ elicitation: jsonJunk, sampling: jsonJunk, roots: jsonJunk }, { requiredKeys: [] }),
          ),
          clientInfo: fc.oneof(fc.constant({ name: 'fuzz', version: '1.0.0' }), fc.constant(undefined), jsonJunk),
          logLevel: fc.oneof(fc.constant(undefined), fc.constantFrom('debug', 'info', 'error', 'nope'), jsonJunk),
          progressToken: fc.oneof(fc.constant(undefined), requestId),
          extra: fc.dictionary(fc.string({ maxLength: 40 }), jsonJunk, { maxKeys: 3 }),
        },
        { requiredKeys: ['version'] },
      )
      .map(({ version, capabilities, clientInfo, logLevel, progressToken, extra }) => ({
        ...extra,
        [Meta.ProtocolVersion]: version,
        ...(capabilities === undefined ? {} : { [Meta.ClientCapabilities]: capabilities }),
        ...(clientInfo === undefined ? {} : { [Meta.ClientInfo]: clientInfo }),
        ...(logLevel === undefined ? {} : { [Meta.LogLevel]: logLevel }),
        ...(progressToken === undefined ? {} : { progressToken }),
      })),
  },
  { weight: 2, arbitrary: anyObject },
  { weight: 2, arbitrary: fc.constant(undefined) },
);

/** One JSON-RPC message (or something shaped like one): requests, notifications, responses, junk. */
const message: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(method, requestId, fc.boolean(), meta).chain(([m, id, isNotification, envelope]) =>
      paramsFor(m).map((params) => {
        const withMeta =
          envelope !== undefined && params !== null && typeof params === 'object' && !Array.isArray(params)
            ? { ...params, _meta: envelope }
            : params;
        return {
          jsonrpc: '2.0',
          ...(isNotification ? {} : { id }),
          method: m,
          ...(withMeta === undefined ? {} : { params: withMeta }),
        };
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      { jsonrpc: fc.oneof(fc.constant('2.0'), jsonJunk), id: requestId, result: jsonJunk, error: jsonJunk },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        jsonrpc: fc.oneof(fc.constantFrom('2.0', '1.0', 2, '2.0 '), jsonJunk),
        id: requestId,
        method: jsonJunk,
        params: jsonJunk,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: jsonJunk },
);

/** A body of one message, or of a batch (of junk as often as not). */
const jsonBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: message.map(json) },
  { weight: 2, arbitrary: fc.array(message, { minLength: 0, maxLength: 20 }).map(json) },
);

const INITIALIZE_PARAMS = (initializeRequest() as { params: unknown }).params;

/** The text of a valid request, to truncate, corrupt or nest junk into. */
const validText = (m = 'tools/call', params: unknown = { name: 'echo', arguments: { text: 'hi' } }): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: m, params });

/** Deep nesting, within the body limit. */
const deepNesting = fc
  .tuple(fc.constantFrom('[', '{"a":'), fc.integer({ min: 10, max: 50_000 }))
  .map(([open, depth]) =>
    open === '[' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

const HUGE_NUMBERS = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9007199254740993',
  '0.000000000000000000000000000001',
  '1E+308',
  '-0',
  '1e-400',
  `1${'0'.repeat(5000)}`,
];

/** Bodies that are not JSON-RPC, or not JSON, or not even UTF-8. */
const junkBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
  // Broken UTF-8 inside a JSON string (a method, a tool's text, a session id in _meta).
  fc
    .tuple(
      fc.constantFrom(
        validText(),
        validText('ping', {}),
        validText('tools/call', { name: 'echo', arguments: { text: 'XX' } }),
      ),
      fc.constantFrom(
        [0xff],
        [0xfe, 0xff],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0xe2, 0x82],
        [0x00],
      ),
    )
    .map(([text, bytes]) => {
      const at = text.indexOf('hi') >= 0 ? text.indexOf('hi') : text.indexOf('ping');
      const cutAt = at >= 0 ? at : 10;
      return Buffer.concat([utf8(text.slice(0, cutAt)), Buffer.from(bytes), utf8(text.slice(cutAt))]);
    }),
  // Truncated JSON.
  fc
    .tuple(
      fc.constantFrom(
        validText(),
        validText('initialize', INITIALIZE_PARAMS),
        JSON.stringify([JSON.parse(validText())]),
      ),
      fc.nat(),
    )
    .map(([text, at]) => utf8(text.slice(0, at % text.length))),
  // Deep nesting: the whole body, the params, a tool's arguments, the envelope, the id.
  fc
    .tuple(deepNesting, fc.constantFrom('body', 'params', 'arguments', 'text', 'meta', 'id', 'batch'))
    .map(([deep, where]) => {
      switch (where) {
        case 'body':
          return utf8(deep);
        case 'params':
          return utf8(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${deep}}}`);
        case 'arguments':
          return utf8(
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","more":${deep}}}}`,
          );
        case 'text':
          return utf8(
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":${deep}}}}`,
          );
        case 'meta':
          return utf8(
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"${Meta.ProtocolVersion}":"${MODERN_VERSION}","${Meta.ClientCapabilities}":${deep}}}}`,
          );
        case 'id':
          return utf8(`{"jsonrpc":"2.0","id":${deep},"method":"ping"}`);
        case 'batch':
          return utf8(`[${deep},${validText('ping', {})}]`);
      }
    }),
  // Huge numbers where numbers go, and where they do not.
  fc
    .tuple(fc.constantFrom(...HUGE_NUMBERS), fc.constantFrom('id', 'times', 'limit', 'progress', 'version', 'body'))
    .map(([n, where]) => {
      switch (where) {
        case 'id':
          return utf8(`{"jsonrpc":"2.0","id":${n},"method":"ping"}`);
        case 'times':
          return utf8(
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","times":${n}}}}`,
          );
        case 'limit':
          return utf8(
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":{"region":"eu","limit":${n}}}}`,
          );
        case 'progress':
          return utf8(
            `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${n},"progress":${n}}}`,
          );
        case 'version':
          return utf8(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"${Meta.ProtocolVersion}":${n}}}}`);
        case 'body':
          return utf8(n);
      }
    }),
  // Prototype keys, duplicate keys, a BOM, odd whitespace, scalars.
  fc.constantFrom(
    ...[
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"text":"p"},"text":"x"}}}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"constructor":{"prototype":{"x":1}},"text":"x"}}}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"name":"echo"},"arguments":{"text":"x"}}}`,
      `{"__proto__":{"jsonrpc":"2.0","method":"ping"},"id":1}`,
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"__proto__":{"${Meta.ProtocolVersion}":"${MODERN_VERSION}"}}}}`,
      `{"jsonrpc":"2.0","id":1,"id":"two","method":"ping","method":"tools/list"}`,
      `\ufeff${validText('ping', {})}`,
      `\u2028${validText('ping', {})}\u2029`,
      `  \n\t${validText('ping', {})}\n\n`,
      `${validText('ping', {})}${validText('ping', {})}`,
      `${validText('ping', {})} junk`,
      'null',
      'true',
      '0',
      '"string"',
      '[]',
      '[[]]',
      '[{}]',
      '{}',
      '',
      ' ',
      `{"jsonrpc":"2.0","id":1,"method":"${'m'.repeat(100_000)}"}`,
      `{"jsonrpc":"2.0","id":"${'i'.repeat(100_000)}","method":"ping"}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}}`,
      `[${Array.from({ length: 2000 }, (_, i) => validText('ping', {}).replace('"id":1', `"id":${i}`)).join(',')}]`,
      `[${Array.from({ length: 5000 }, () => '1').join(',')}]`,
    ].map(utf8),
  ),
);

/** A session id header: the abused sessions' own, mangled ones, repeated ones, junk, or none. */
const sessionHeader = (sessions: readonly AbusedSession[]): fc.Arbitrary<string | string[] | undefined> => {
  const ids = sessions.map((session) => session.id);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ids) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: junkValue },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ids), fc.nat()).map(([id, n]) => mangle(id, n)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ids), junkValue).map(([id, junk]) => [id, junk]) },
    { weight: 1, arbitrary: fc.constantFrom(...ids).map((id) => [id, id]) },
  );
};

/** `id` changed so that it names no session (never by whitespace, which HTTP trims). */
function mangle(id: string, n: number): string {
  const variants = [
    `${id}x`,
    id.slice(0, -1),
    id.toUpperCase(),
    `${id},${id}`,
    `x${id}`,
    id.replace(/[0-9a-f]/, 'Z'),
    base64Sentinel(id),
  ];
  const variant = variants[n % variants.length]!;
  return variant === id ? `${id}0` : variant;
}

/** Header names a 2026-07-28 request mirrors its body into, and junk Mcp-Param-* ones. */
const modernHeaders = (m: unknown, params: unknown): fc.Arbitrary<Record<string, string | undefined>> => {
  const p = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  const args = p.arguments !== null && typeof p.arguments === 'object' ? (p.arguments as Record<string, unknown>) : {};
  // As a client writes them: a string plainly or in the sentinel, anything else as its JSON.
  const mirror = (value: unknown): string | undefined =>
    typeof value === 'string'
      ? headerValueOf(value)
      : value === undefined
        ? undefined
        : headerValueOf(JSON.stringify(value));
  const methodValue = typeof m === 'string' ? headerValueOf(m) : undefined;
  const nameValue = mirror(p.name ?? p.uri);
  const chooseFrom = (right: string | undefined): fc.Arbitrary<string | undefined> =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(right) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: junkValue },
    );
  return fc
    .record({
      'mcp-method': chooseFrom(methodValue),
      'mcp-name': chooseFrom(nameValue),
      'Mcp-Param-Region': chooseFrom(mirror(args.region)),
      'mcp-param-limit': chooseFrom(mirror(args.limit)),
      'MCP-PARAM-EXACT': chooseFrom(mirror(args.exact)),
      extra: fc.dictionary(
        token.map((name) => `Mcp-Param-${name}`),
        smallJunk,
        { maxKeys: 3 },
      ),
    })
    .map(({ extra, ...mirrored }) => ({ ...mirrored, ...extra }));
};

/** Keeps the headers that are set. */
function headersOf(
  entries: Record<string, string | readonly string[] | undefined>,
): Record<string, string | readonly string[]> {
  const out: Record<string, string | readonly string[]> = {};
  for (const [name, value] of Object.entries(entries)) if (value !== undefined) out[name] = value;
  return out;
}

const PATHS = [
  '/mcp',
  '/mcp/',
  '/mcp?',
  '/mcp?a=1&b',
  '/MCP',
  '/mcp/x',
  '//mcp',
  '/mcp%2F',
  '/mcp;x',
  '/%6dcp',
  '/mcp?%zz',
];
const path = fc.oneof(
  { weight: 20, arbitrary: fc.constant('/mcp') },
  { weight: 2, arbitrary: fc.constantFrom(...PATHS) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 8000 }).map((n) => `/mcp?q=${'a'.repeat(n)}`) },
);

/** Random extra headers, Host and Origin included. */
const extraHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  { weight: 3, arbitrary: fc.dictionary(token, smallJunk, { maxKeys: 30 }) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        origin: fc.oneof(
          fc.constantFrom('http://127.0.0.1', 'http://evil.example', 'null', 'http://localhost:1'),
          junkValue,
        ),
        host: fc.oneof(fc.constantFrom('evil.example', 'localhost', '127.0.0.1:1', '[::1]', ''), junkValue),
      },
      { requiredKeys: [] },
    ),
  },
);

/** A POST of either era, right headers often, wrong ones just as often. */
const postRequest = (sessions: readonly AbusedSession[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      body: fc.oneof(
        { weight: 3, arbitrary: jsonBody },
        { weight: 2, arbitrary: junkBody },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      accept: acceptHeader,
      contentType: contentTypeHeader,
      session: fc.oneof(
        { weight: 2, arbitrary: sessionHeader(sessions) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      version: versionHeader,
      extra: extraHeaders,
      path,
      chunked: fc.boolean(),
    })
    .chain((r) => {
      // The headers a 2026-07-28 request mirrors from its body, for the message that body carries.
      let parsed: Record<string, unknown> = {};
      try {
        const value: unknown =
          r.body === undefined || r.body.length > 20_000 ? undefined : JSON.parse(r.body.toString('utf8'));
        if (value !== null && typeof value === 'object' && !Array.isArray(value))
          parsed = value as Record<string, unknown>;
      } catch {
        // Not JSON: the mirrored headers are junk or absent.
      }
      return modernHeaders(parsed.method, parsed.params).map((mirrored): FuzzRequest => ({
        family: r.body === undefined ? 'post-empty' : 'post',
        method: 'POST',
        path: r.path,
        headers: headersOf({
          accept: r.accept,
          'content-type': r.contentType,
          'mcp-session-id': r.session,
          'mcp-protocol-version': r.version,
          ...mirrored,
          ...r.extra,
        }),
        body: r.body,
        chunked: r.chunked,
        mayReset: r.body !== undefined && r.body.length > MAX_BODY_BYTES,
      }));
    });

/** Arguments a tool takes as they are. */
const goodCall = fc.oneof(
  fc.record({ name: fc.constant('echo'), arguments: fc.record({ text: anyText(40) }) }),
  fc.record({
    name: fc.constant('echo'),
    arguments: fc.record({ text: fc.string({ maxLength: 20 }), times: fc.integer({ min: 1, max: 3 }) }),
  }),
  fc.record({
    name: fc.constant('lookup'),
    arguments: fc.record(
      { region: anyText(20), limit: fc.integer({ min: -5, max: 1000 }), exact: fc.boolean() },
      { requiredKeys: ['region'] },
    ),
  }),
  fc.record({ name: fc.constant('steps'), arguments: fc.constant({}) }),
  fc.record({ name: fc.constant('slow'), arguments: fc.record({ ms: fc.integer({ min: 0, max: 100 }) }) }),
);

/** A message served as it is: a call, a list, a ping, a listen (2026-07-28), a cancellation. */
const goodMessage = fc.oneof(
  { weight: 6, arbitrary: goodCall.map((params) => ({ m: 'tools/call', params: params as Record<string, unknown> })) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      { m: 'tools/list', params: {} },
      { m: 'ping', params: {} },
      { m: 'prompts/list', params: {} },
      { m: 'resources/list', params: {} },
      { m: 'resources/templates/list', params: {} },
      { m: 'server/discover', params: {} },
      { m: 'logging/setLevel', params: { level: 'debug' } },
      { m: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } },
      { m: 'notifications/cancelled', params: { requestId: 1 } },
      { m: 'notifications/roots/list_changed', params: {} },
    ),
  },
);

/** A right 2026-07-28 envelope. */
const goodMeta = fc
  .record({
    capabilities: fc.constantFrom(
      {},
      { elicitation: {} },
      { elicitation: {}, sampling: {}, roots: { listChanged: true } },
    ),
    logLevel: fc.option(fc.constantFrom('debug', 'info', 'error'), { nil: undefined }),
    progressToken: fc.option(fc.oneof(fc.integer(), fc.string({ maxLength: 10 })), { nil: undefined }),
  })
  .map(({ capabilities, logLevel, progressToken }) => ({
    [Meta.ProtocolVersion]: MODERN_VERSION,
    [Meta.ClientCapabilities]: capabilities,
    [Meta.ClientInfo]: { name: 'fuzz', version: '1.0.0' },
    ...(logLevel === undefined ? {} : { [Meta.LogLevel]: logLevel }),
    ...(progressToken === undefined ? {} : { progressToken }),
  }));

/** The headers a {@link nearlyValidPost} may break (lower case, as it writes them). */
const HEADER_BREAKS = [
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'mcp-param-region',
  'last-event-id',
];

/** What a {@link nearlyValidPost} breaks: nothing, one part of the body, or one header. */
const BROKEN = fc.oneof(
  { weight: 5, arbitrary: fc.constant('none') },
  { weight: 3, arbitrary: fc.constantFrom('meta', 'params', 'id', 'method', 'batch') },
  { weight: 4, arbitrary: fc.constantFrom(...HEADER_BREAKS) },
);

/**
 * A POST of either era that is right but for at most one thing (the body's envelope, its params,
 * its id, its method, batching it, or one header): what reaches the dispatcher and the tools.
 */
const nearlyValidPost = (sessions: readonly AbusedSession[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      modern: fc.boolean(),
      session: fc.constantFrom(...sessions),
      message: goodMessage,
      id: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.string({ maxLength: 12 })),
      meta: goodMeta,
      progressToken: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      broken: BROKEN,
    })
    .chain((r) => junkFor(r.broken).map((junk) => ({ ...r, junk })))
    .map((r): FuzzRequest => {
      const { modern, session, broken, junk } = r;
      const isNotification = r.message.m.startsWith('notifications/');
      let params: unknown = modern
        ? { ...r.message.params, _meta: r.meta }
        : r.progressToken === undefined
          ? r.message.params
          : { ...r.message.params, _meta: { progressToken: r.progressToken } };
      if (broken === 'meta') params = { ...r.message.params, ...(junk === undefined ? {} : { _meta: junk }) };
      if (broken === 'params') params = junk;
      const m = broken === 'method' ? junk : r.message.m;
      const one = {
        jsonrpc: '2.0',
        ...(isNotification && broken !== 'id' ? {} : { id: broken === 'id' ? junk : r.id }),
        method: m,
        ...(params === undefined ? {} : { params }),
      };
      const body = broken === 'batch' ? [one, ...(junk as unknown[])] : one;
      const headers: Record<string, string | undefined> = modern
        ? { ...MCP_POST_HEADERS, 'mcp-protocol-version': MODERN_VERSION, ...modernMirror(m, params) }
        : { ...MCP_POST_HEADERS, 'mcp-session-id': session.id, 'mcp-protocol-version': session.version };
      if (HEADER_BREAKS.includes(broken)) headers[broken] = junk as string;
      return {
        family: `nearly-valid-${modern ? '2026' : '2025'}${broken === 'none' ? '' : `-${broken}`}`,
        method: 'POST',
        path: '/mcp',
        headers: headersOf(headers),
        body: json(body),
      };
    });

/** The junk that replaces the part `broken` names. */
function junkFor(broken: string): fc.Arbitrary<unknown> {
  switch (broken) {
    case 'none':
      return fc.constant(undefined);
    case 'meta':
      return meta;
    case 'params':
      return fc.constantFrom(...KNOWN_METHODS).chain(paramsFor);
    case 'id':
      return requestId;
    case 'method':
      return method;
    case 'batch':
      return fc.array(message, { maxLength: 4 });
    default:
      return junkValue;
  }
}

/** The headers a 2026-07-28 client mirrors from a body, exactly. */
function modernMirror(m: unknown, params: unknown): Record<string, string> {
  const p = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  const args = p.arguments !== null && typeof p.arguments === 'object' ? (p.arguments as Record<string, unknown>) : {};
  const headers: Record<string, string> = {};
  if (typeof m === 'string') headers['mcp-method'] = headerValueOf(m);
  if (m === 'tools/call' && typeof p.name === 'string') headers['mcp-name'] = headerValueOf(p.name);
  if (p.name === 'lookup') {
    if (typeof args.region === 'string') headers['mcp-param-region'] = headerValueOf(args.region);
    if (typeof args.limit === 'number') headers['mcp-param-limit'] = String(args.limit);
    if (typeof args.exact === 'boolean') headers['mcp-param-exact'] = String(args.exact);
  }
  return headers;
}

/** GET (the session's stream) and DELETE (its end), every header varied; never a DELETE of an abused session. */
const getOrDelete = (sessions: readonly AbusedSession[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom('GET', 'GET', 'DELETE'),
      accept: fc.oneof(
        fc.constantFrom('text/event-stream', 'text/event-stream', '*/*', 'text/*', undefined),
        acceptHeader,
      ),
      session: sessionHeader(sessions),
      version: versionHeader,
      lastEventId: fc.option(lastEventId, { nil: undefined }),
      body: fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.oneof(jsonBody, junkBody) },
      ),
      extra: extraHeaders,
      path,
      n: fc.nat(),
    })
    .map((r): FuzzRequest => {
      const ids = new Set(sessions.map((session) => session.id));
      let session = r.session;
      if (r.method === 'DELETE') {
        const values = session === undefined ? [] : typeof session === 'string' ? [session] : session;
        // Node joins repeated headers (`a, b`), which names no session; a lone real id would end it.
        if (values.length === 1 && ids.has(values[0]!.trim())) session = mangle(values[0]!.trim(), r.n);
      }
      return {
        family: r.method.toLowerCase(),
        method: r.method,
        path: r.path,
        headers: headersOf({
          accept: r.accept,
          'mcp-session-id': session,
          'mcp-protocol-version': r.version,
          'last-event-id': r.lastEventId,
          ...r.extra,
        }),
        body: r.body,
      };
    });

/** The methods the endpoint does not serve, with whatever headers and body. */
const otherMethod = (sessions: readonly AbusedSession[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'HEAD'),
      accept: acceptHeader,
      contentType: contentTypeHeader,
      session: sessionHeader(sessions),
      version: versionHeader,
      body: fc.option(fc.oneof(jsonBody, junkBody), { nil: undefined }),
      extra: extraHeaders,
      path,
    })
    .map((r): FuzzRequest => ({
      family: r.method.toLowerCase(),
      method: r.method,
      path: r.path,
      headers: headersOf({
        accept: r.accept,
        'content-type': r.contentType,
        'mcp-session-id': r.session,
        'mcp-protocol-version': r.version,
        ...r.extra,
      }),
      // Node's client sends no body with HEAD.
      body: r.method === 'HEAD' ? undefined : r.body,
    }));

/** Heads over Node's limit, many headers, repeated headers. */
const headerFlood = (sessions: readonly AbusedSession[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom('POST', 'GET', 'DELETE'),
      size: fc.integer({ min: 10_000, max: 40_000 }),
      count: fc.integer({ min: 50, max: 300 }),
      kind: fc.constantFrom('one-huge', 'many', 'repeated'),
      session: sessionHeader(sessions),
    })
    .map(({ method, size, count, kind, session }): FuzzRequest => {
      const ids = new Set(sessions.map((s) => s.id));
      const safeSession =
        method === 'DELETE' && typeof session === 'string' && ids.has(session) ? `${session}x` : session;
      const base = { ...MCP_POST_HEADERS, 'mcp-protocol-version': MODERN_VERSION, 'mcp-session-id': safeSession };
      const flood: Record<string, string | readonly string[]> =
        kind === 'one-huge'
          ? { 'mcp-name': 'n'.repeat(size) }
          : kind === 'many'
            ? Object.fromEntries(Array.from({ length: count }, (_, i) => [`mcp-param-p${i}`, `v${i}`]))
            : {
                'mcp-method': Array.from({ length: count }, () => 'tools/call'),
                'mcp-protocol-version': Array.from({ length: count }, () => MODERN_VERSION),
              };
      return {
        family: `flood-${kind}`,
        method,
        path: '/mcp',
        headers: headersOf({ ...base, ...flood }),
        body: method === 'POST' ? utf8(validText()) : undefined,
        // A head over Node's 16 KiB limit is refused (431) and the connection dropped.
        mayReset: true,
      };
    });

const fuzzRequest = (sessions: readonly AbusedSession[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .oneof(
      { weight: 35, arbitrary: postRequest(sessions) },
      { weight: 30, arbitrary: nearlyValidPost(sessions) },
      { weight: 15, arbitrary: getOrDelete(sessions) },
      { weight: 8, arbitrary: otherMethod(sessions) },
      { weight: 2, arbitrary: headerFlood(sessions) },
    )
    .map((request) => (headBytes(request) > LARGE_HEAD_BYTES ? { ...request, mayReset: true } : request))
    // One request in twenty is given up by its client a moment after it started.
    .chain((request) =>
      fc
        .oneof(
          { weight: 19, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }) },
        )
        .map((abortAfterMs) =>
          abortAfterMs === undefined ? request : { ...request, family: `${request.family}-abandoned`, abortAfterMs },
        ),
    );

/**
 * Past this a head may pass Node's 16 KiB limit: the request goes on a connection of its own, since
 * the parser's refusal ends the connection (and Fastify's, without saying `Connection: close`, so a
 * kept-alive client would lose the next request it sent there).
 */
const LARGE_HEAD_BYTES = 12_000;

/** About how many bytes the head of `request` takes (request line and header lines). */
function headBytes(request: FuzzRequest): number {
  let bytes = request.method.length + request.path.length + 64;
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of typeof value === 'string' ? [value] : value) bytes += name.length + Buffer.byteLength(one) + 4;
  }
  return bytes;
}

/** Bodies over the limit, declared and not (the 413 path), and the deepest nesting: each once per run. */
const overLimit = (): FuzzRequest[] => {
  const big = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
  return [
    { family: 'over-limit', method: 'POST', path: '/mcp', headers: { ...MCP_POST_HEADERS }, body: big, mayReset: true },
    {
      family: 'over-limit',
      method: 'POST',
      path: '/mcp',
      headers: { ...MCP_POST_HEADERS },
      body: big,
      chunked: true,
      mayReset: true,
    },
    {
      family: 'over-limit',
      method: 'POST',
      path: '/mcp',
      headers: { ...MCP_POST_HEADERS },
      // Half a million levels of nesting in 1 MB. Not 2 million in 4 MiB: V8's JSON.parse alone would
      // hold the event loop for ~3 s, more than this bounded run can spend on one request.
      body: utf8(`${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)}`),
    },
  ];
};

// ---------------------------------------------------------------------------------------------
// Raw bytes: what no HTTP client writes.

const rawCases = (port: number, sessions: readonly AbusedSession[]): fc.Arbitrary<Buffer> => {
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const post = (extraHead: string | Buffer, body = validText()): Buffer =>
    Buffer.concat([
      utf8(`POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\n`),
      typeof extraHead === 'string' ? utf8(extraHead) : extraHead,
      utf8(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    ]);
  const modern = validText('tools/call', {
    name: 'echo',
    arguments: { text: 'raw' },
    _meta: { [Meta.ProtocolVersion]: MODERN_VERSION, [Meta.ClientCapabilities]: {} },
  });
  const modernHead = `MCP-Protocol-Version: ${MODERN_VERSION}\r\nMcp-Method: tools/call\r\n`;
  const session = sessions[0]!;
  const weirdBytes = [
    Buffer.from('😀', 'utf8'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0x00]),
    Buffer.from([0x01, 0x7f]),
    Buffer.from('\u2028', 'utf8'),
  ];
  const headerWithBytes = (name: string, bytes: Buffer, rest = ''): Buffer =>
    Buffer.concat([utf8(`${rest}${name}: a`), bytes, utf8('b\r\n')]);
  const fixed: Buffer[] = [
    ...weirdBytes.flatMap((bytes) => [
      post(Buffer.concat([utf8(modernHead), headerWithBytes('Mcp-Name', bytes)]), modern),
      post(headerWithBytes('Mcp-Method', bytes, `MCP-Protocol-Version: ${MODERN_VERSION}\r\n`), modern),
      post(headerWithBytes('MCP-Protocol-Version', bytes)),
      post(headerWithBytes('Mcp-Session-Id', bytes)),
      post(Buffer.concat([utf8(modernHead), headerWithBytes('Mcp-Param-Region', bytes)]), modern),
      post(headerWithBytes('X-Junk', bytes)),
      post(Buffer.concat([utf8('X-'), bytes, utf8(': name\r\n')])),
    ]),
    post(`Mcp-Session-Id: ${session.id}\r\nMCP-Protocol-Version: ${session.version}\r\nX-Fold: a\r\n  folded\r\n`),
    utf8(
      `POST /mcp HTTP/1.1\n${host.trim()}\nContent-Type: application/json\nAccept: ${ACCEPT_OK}\nContent-Length: 2\n\n{}`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=1\r\n{}\r\n0\r\nX-Trailer: t\r\n\r\n`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nTransfer-Encoding: identity\r\n\r\n{}`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: abc\r\n\r\n{}`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: -1\r\n\r\n{}`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 2, 2\r\n\r\n{}`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 10\r\n\r\n{}`,
    ),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 2\r\n\r\n{}GARBAGE / HTTP/1.1\r\n\r\n`,
    ),
    Buffer.concat([post('', validText('ping', {})), post('', '{"jsonrpc":'), post(modernHead, modern)]),
    Buffer.concat([post('', validText('initialize', INITIALIZE_PARAMS)), utf8('\r\n\r\n\r\n')]),
    utf8(`POST /mcp HTTP/1.0\r\nContent-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 2\r\n\r\n{}`),
    utf8(`GET /mcp HTTP/1.0\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${session.id}x\r\n\r\n`),
    utf8('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    utf8(
      `POST http://127.0.0.1:${port}/mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 2\r\n\r\n{}`,
    ),
    utf8(`OPTIONS * HTTP/1.1\r\n${host}\r\n`),
    utf8(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n${host}\r\n`),
    utf8(`post /mcp HTTP/1.1\r\n${host}Content-Length: 2\r\n\r\n{}`),
    utf8(`${'P'.repeat(5000)} /mcp HTTP/1.1\r\n${host}\r\n`),
    utf8(`POST /m cp HTTP/1.1\r\n${host}\r\n`),
    utf8(`POST /mcp HTTP/1.1\r\n${host}NoColonHere\r\n\r\n`),
    utf8(`POST /mcp HTTP/1.1\r\n${host}Mcp Session Id: x\r\n\r\n`),
    utf8(`POST /mcp HTTP/1.1\r\n${host}: empty-name\r\n\r\n`),
    utf8(
      `GET /mcp HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    ),
    utf8(
      `GET /mcp HTTP/1.1\r\n${host}Accept: text/event-stream\r\nMcp-Session-Id: ${session.id}\r\nLast-Event-ID: g-0\u00ff\r\n\r\n`,
    ),
    utf8(`GET /mcp${'/'.repeat(20_000)} HTTP/1.1\r\n${host}\r\n`),
    utf8(
      `POST /mcp HTTP/1.1\r\n${host}Expect: 100-continue\r\nContent-Type: application/json\r\nAccept: ${ACCEPT_OK}\r\nContent-Length: 2\r\n\r\n{}`,
    ),
    utf8(`POST /mcp HTTP/1.1\r\n${host}Expect: 42-nonsense\r\nContent-Length: 2\r\n\r\n{}`),
    utf8('\r\n\r\n\r\n'),
    Buffer.alloc(0),
  ];
  const template = post(modernHead, modern);
  /** A valid request with a few bytes changed, inserted or cut. */
  const mutated = fc
    .array(fc.tuple(fc.constantFrom('set', 'insert', 'cut'), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 })), {
      minLength: 1,
      maxLength: 4,
    })
    .map((edits) => {
      let bytes = Buffer.from(template);
      for (const [kind, at, junk] of edits) {
        const i = at % Math.max(bytes.length, 1);
        if (kind === 'set') bytes[i] = junk[0]!;
        else if (kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from(junk), bytes.subarray(i)]);
        else bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + junk.length)]);
      }
      return bytes;
    });
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...fixed) },
    { weight: 3, arbitrary: mutated },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 1024 }).map((bytes) => Buffer.from(bytes)) },
  );
};

// ---------------------------------------------------------------------------------------------
// Sessions used, abused and ended all at once.

/** One thing done to a session during a burst, after `delayMs`. */
type BurstAction =
  | {
      readonly kind: 'call';
      readonly delayMs: number;
      readonly id: number;
      readonly ms: number;
      readonly progress: boolean;
    }
  | { readonly kind: 'cancel'; readonly delayMs: number; readonly id: number }
  | { readonly kind: 'get'; readonly delayMs: number; readonly lastEventId?: string; readonly holdMs: number }
  | { readonly kind: 'delete'; readonly delayMs: number }
  | { readonly kind: 'batch'; readonly delayMs: number; readonly ids: readonly number[] }
  | { readonly kind: 'abandon'; readonly delayMs: number; readonly id: number; readonly afterMs: number }
  | { readonly kind: 'junk'; readonly delayMs: number; readonly body: Buffer };

const delayMs = fc.integer({ min: 0, max: 120 });
const callId = fc.integer({ min: 1, max: 4 });
const burstAction: fc.Arbitrary<BurstAction> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('call'),
      delayMs,
      id: callId,
      ms: fc.integer({ min: 0, max: 150 }),
      progress: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel'), delayMs, id: callId }) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('get'),
        delayMs,
        lastEventId: fc.constantFrom('g-0', 'g-1', 'p1-0', 'p1-1', 'p2-1', 'p3-2'),
        holdMs: fc.integer({ min: 0, max: 200 }),
      },
      { requiredKeys: ['kind', 'delayMs', 'holdMs'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete'), delayMs }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('batch'),
      delayMs,
      ids: fc.array(callId, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('abandon'),
      delayMs,
      id: callId,
      afterMs: fc.integer({ min: 0, max: 60 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('junk'), delayMs, body: fc.oneof(jsonBody, junkBody) }) },
);
const sessionBurst = fc.record({
  version: fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25'),
  actions: fc.array(burstAction, { minLength: 3, maxLength: 14 }),
});

/** The request of `action` on `session`. */
function burstRequest(action: BurstAction, session: AbusedSession): FuzzRequest {
  const headers = { ...MCP_POST_HEADERS, 'mcp-session-id': session.id, 'mcp-protocol-version': session.version };
  const call = (id: number, ms: number, progress: boolean): object => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'slow', arguments: { ms }, ...(progress ? { _meta: { progressToken: `t${id}` } } : {}) },
  });
  const post = (body: unknown, extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
    family: `burst-${action.kind}`,
    method: 'POST',
    path: '/mcp',
    headers,
    body: Buffer.isBuffer(body) ? body : json(body),
    ...extra,
  });
  switch (action.kind) {
    case 'call':
      return post(call(action.id, action.ms, action.progress));
    case 'abandon':
      return post(call(action.id, 100, true), { abortAfterMs: action.afterMs });
    case 'cancel':
      return post({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: action.id, reason: 'fuzz' },
      });
    case 'batch':
      return post(action.ids.map((id) => call(id, 20, true)));
    case 'junk':
      return post(action.body);
    case 'get':
      return {
        family: 'burst-get',
        method: 'GET',
        path: '/mcp',
        headers: headersOf({
          accept: 'text/event-stream',
          'mcp-session-id': session.id,
          'mcp-protocol-version': session.version,
          'last-event-id': action.lastEventId,
        }),
        holdStreamMs: action.holdMs,
      };
    case 'delete':
      return {
        family: 'burst-delete',
        method: 'DELETE',
        path: '/mcp',
        headers: { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version },
      };
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

/** One finding, with what reproduces it. */
interface Finding {
  readonly what: string;
  readonly repro: string;
}

/** A listen stream never ends by itself: once acknowledged, the client closes it. */
const openEndedStream = (received: string): boolean => received.includes('notifications/subscriptions/acknowledged');

/** Whether `outcome` is a drop the request allowed (its head or body over a limit). */
const allowedReset = (request: FuzzRequest, outcome: FuzzOutcome): boolean =>
  request.mayReset === true && outcome.error !== undefined && outcome.error !== 'timeout';

function findingsOf(request: FuzzRequest, outcome: FuzzOutcome): string[] {
  const found: string[] = [];
  if (outcome.error === 'timeout') found.push(`no complete answer within ${REQUEST_TIMEOUT_MS} ms (a hang)`);
  else if (outcome.error !== undefined && !allowedReset(request, outcome)) found.push(`no answer: ${outcome.error}`);
  if (outcome.status !== undefined && outcome.status >= 500) found.push(`status ${outcome.status}`);
  const head = Object.entries(outcome.headers)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\n');
  for (const leak of leaksIn(`${head}\n${outcome.text}`, sentText(request))) found.push(`leak, ${leak}`);
  const type = String(outcome.headers['content-type'] ?? '');
  const complete = outcome.error === undefined && !outcome.abandoned && !outcome.streamClosedByClient;
  if (complete && /application\/json/i.test(type) && outcome.text !== '') {
    try {
      JSON.parse(outcome.text);
    } catch {
      found.push('a JSON answer that does not parse');
    }
  }
  return found;
}

/** What an answer said, in short: its JSON-RPC error message, `result`, or the start of its text. */
function gist(outcome: FuzzOutcome): string {
  if (outcome.streamClosedByClient) return 'stream';
  if (outcome.error !== undefined) return `(${outcome.error})`;
  try {
    const answer = JSON.parse(outcome.text) as { error?: { message?: string }; result?: unknown; message?: string };
    if (Array.isArray(answer)) return `batch of ${answer.length}`;
    return (answer.error?.message ?? (answer.result === undefined ? String(answer.message) : 'result')).slice(0, 70);
  } catch {
    return JSON.stringify(outcome.text.slice(0, 50));
  }
}

const reproOf = (request: FuzzRequest, outcome: FuzzOutcome): string =>
  [
    describeRequest(request),
    `  -> ${outcome.status ?? '(no status)'} ${outcome.error ?? ''} in ${outcome.ms} ms: ${JSON.stringify(outcome.text.slice(0, 400))}`,
    ...(outcome.previousOnSocket
      ? [`  the socket carried before:\n${describeRequest(outcome.previousOnSocket, 200)}`]
      : []),
    ...(outcome.retried
      ? [
          `  sent twice; the first attempt: ${outcome.retried.error} in ${outcome.retried.ms} ms` +
            (outcome.retried.previousOnSocket
              ? `, on a socket that carried before:\n${describeRequest(outcome.retried.previousOnSocket, 200)}`
              : ''),
        ]
      : []),
  ].join('\n');

function report(title: string, findings: readonly Finding[]): string {
  const grouped = new Map<string, string[]>();
  for (const finding of findings) grouped.set(finding.what, [...(grouped.get(finding.what) ?? []), finding.repro]);
  const lines = [
    `${title} on ${TEST_ADAPTER}; FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_RAW_RUNS=${RAW_RUNS} ` +
      `FUZZ_BURSTS=${BURSTS} reproduces the inputs`,
  ];
  for (const [what, repros] of grouped) {
    lines.push(`\n== ${what}: ${repros.length} request(s); the first ones:`);
    lines.push(...repros.slice(0, 3));
  }
  return lines.join('\n');
}

describe(`HTTP fuzzing of a live endpoint (e2e, ${TEST_ADAPTER})`, () => {
  const logger = new RecordingLogger();
  let running: RunningApp;
  let agent: http.Agent;
  let sessions: AbusedSession[] = [];

  /** What the application logged at level error since entry `from`. */
  // Nest's exception handler logs "aborted" when a client hangs up in the middle of a body that
  // Fastify parses: on routes mcp42 does not serve (`/`, `/mcp/`, which Fastify does not fold into
  // `/mcp`). The endpoint's own routes read no body through Fastify (checked for every method in
  // transport/other-methods.e2e-spec.ts), so that line is the platform's, not a finding.
  const PLATFORM_ABORT = /^Error: aborted \| undefined \| ExceptionsHandler$/;
  const errorsSince = (from: number): string[] =>
    logger.entries
      .slice(from)
      .flatMap((entry) => (entry.level === 'error' && !PLATFORM_ABORT.test(entry.text) ? [entry.text] : []));

  const newAgent = (): http.Agent => new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, scheduling: 'lifo' });

  /** Requests the server may refuse by dropping their connection go on one of their own. */
  const ownConnection = new http.Agent({ keepAlive: false });

  const send = (request: FuzzRequest): Promise<FuzzOutcome> =>
    fuzzExchange(running.baseUrl, request, {
      agent: request.mayReset ? ownConnection : agent,
      timeoutMs: REQUEST_TIMEOUT_MS,
      openEndedStream,
    });

  /** A valid POST on the endpoint; its outcome. */
  const post = (headers: Record<string, string>, body: unknown): Promise<FuzzOutcome> =>
    send({
      family: 'valid',
      method: 'POST',
      path: '/mcp',
      headers: { ...MCP_POST_HEADERS, ...headers },
      body: json(body),
    });

  /** A session for the bursts, opened through the fuzz's own connections. */
  async function initialize(version: string): Promise<AbusedSession> {
    const { id } = await openSession(running.mcpUrl, { protocolVersion: version, send: post });
    return { id, version };
  }

  /** The one message of a JSON answer, or the last `data:` of an SSE one. */
  const answerOf = (outcome: FuzzOutcome): { result?: { content?: { text?: string }[] }; error?: unknown } => {
    if (/text\/event-stream/.test(String(outcome.headers['content-type']))) {
      const data = outcome.text.split('\n').filter((line) => line.startsWith('data: '));
      return JSON.parse(data.at(-1)!.slice('data: '.length)) as ReturnType<typeof answerOf>;
    }
    return JSON.parse(outcome.text) as ReturnType<typeof answerOf>;
  };

  const echoOn = async (session: AbusedSession, text: string): Promise<string | undefined> => {
    const call = await post(
      { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version },
      { jsonrpc: '2.0', id: `after-${text}`, method: 'tools/call', params: { name: 'echo', arguments: { text } } },
    );
    expect(call.status).toBe(200);
    return answerOf(call).result?.content?.[0]?.text;
  };

  beforeAll(async () => {
    running = await startApp(fuzzModule, { logger });
    agent = newAgent();
    sessions = [await initialize('2025-06-18'), await initialize('2025-03-26'), await initialize('2025-11-25')];
  });

  afterAll(async () => {
    agent?.destroy();
    ownConnection.destroy();
    await running?.close();
    Logger.overrideLogger(false);
  });

  it(
    `answers ${RUNS} generated malformed requests of both eras: no 5xx, no hang, no internals shown`,
    async () => {
      const logged = logger.entries.length;
      const generating = performance.now();
      const requests = [...fc.sample(fuzzRequest(sessions), { seed: SEED, numRuns: RUNS }), ...overLimit()];
      const generated = ((performance.now() - generating) / 1000).toFixed(1);
      // Fresh sockets: none left idle past the server's keep-alive timeout while the inputs were made.
      agent.destroy();
      agent = newAgent();
      const started = performance.now();
      const outcomes = await runPool(requests, CONCURRENCY, send);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);

      const statuses = new Tally();
      const families = new Tally();
      const findings: Finding[] = [];
      outcomes.forEach((outcome, i) => {
        const request = requests[i]!;
        statuses.add(
          outcome.status === undefined
            ? `(${outcome.abandoned ? 'abandoned' : outcome.error})`
            : outcome.streamClosedByClient
              ? `${outcome.status} stream`
              : outcome.status,
        );
        families.add(
          request.abortAfterMs !== undefined ? 'abandoned' : request.family.replace(/^(nearly-valid-\d+).*/, '$1'),
        );
        for (const what of findingsOf(request, outcome)) findings.push({ what, repro: reproOf(request, outcome) });
      });
      const slowest = Math.max(...outcomes.map((outcome) => outcome.ms));
      const retried = outcomes.filter((outcome) => outcome.retried).length;
      if (process.env.FUZZ_VERBOSE !== undefined) {
        const answers = new Tally();
        outcomes.forEach((outcome, i) => answers.add(`${requests[i]!.family} ${outcome.status} ${gist(outcome)}`));
        process.stdout.write(`  answers:\n    ${answers.sorted().join('\n    ')}\n`);
        const slow = outcomes
          .map((outcome, i) => ({ outcome, request: requests[i]! }))
          .sort((a, b) => b.outcome.ms - a.outcome.ms)
          .slice(0, 8)
          .map(({ outcome, request }) => `${outcome.ms} ms: ${reproOf(request, outcome).slice(0, 400)}`);
        process.stdout.write(`  slowest:\n    ${slow.join('\n    ')}\n`);
        process.stdout.write(
          `  logged:\n    ${logger.entries.map((e) => `${e.level} ${e.text.slice(0, 300)}`).join('\n    ')}\n`,
        );
      }
      // The run's shape, for the record (and to see that every family reached the server).
      process.stdout.write(
        `[http-fuzz ${TEST_ADAPTER}] seed ${SEED}: ${requests.length} requests in ${seconds} s ` +
          `(generated in ${generated} s, slowest ${slowest} ms, ${retried} resent on a fresh socket)\n` +
          `  statuses: ${statuses}\n  families: ${families}\n`,
      );
      for (const line of errorsSince(logged))
        findings.push({ what: 'an error logged by the application', repro: line.slice(0, 1500) });

      if (findings.length > 0)
        throw new Error(report(`${findings.length} finding(s) in ${requests.length} requests`, findings));
      expect(statuses.get(200) + statuses.get('200 stream')).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `answers ${RAW_RUNS} raw malformed messages (no HTTP client would write them) without a 5xx, a hang or internals`,
    async () => {
      const { port } = running.app.getHttpServer().address() as AddressInfo;
      const logged = logger.entries.length;
      const inputs = fc.sample(rawCases(port, sessions), { seed: SEED, numRuns: RAW_RUNS });
      const outcomes: RawOutcome[] = await runPool(inputs, CONCURRENCY, (bytes) =>
        rawExchange(port, bytes, REQUEST_TIMEOUT_MS),
      );
      const statuses = new Tally();
      const findings: Finding[] = [];
      outcomes.forEach((outcome, i) => {
        const bytes = inputs[i]!;
        statuses.add(outcome.status ?? `(${outcome.error ?? 'closed, no answer'})`);
        const repro = `raw bytes (base64): ${bytes.toString('base64').slice(0, 800)}\n  as text: ${JSON.stringify(bytes.toString('latin1').slice(0, 400))}\n  -> ${JSON.stringify(outcome.text.slice(0, 400))}`;
        if (outcome.error === 'timeout')
          findings.push({ what: `no end within ${REQUEST_TIMEOUT_MS} ms (a hang)`, repro });
        for (const m of outcome.text.matchAll(/HTTP\/1\.[01] (\d{3})/g)) {
          if (Number(m[1]) >= 500) findings.push({ what: `status ${m[1]}`, repro });
        }
        for (const leak of leaksIn(outcome.text, bytes.toString('latin1') + bytes.toString('utf8')))
          findings.push({ what: `leak, ${leak}`, repro });
      });
      process.stdout.write(`[http-fuzz ${TEST_ADAPTER}] raw: ${inputs.length} messages; first statuses: ${statuses}\n`);
      if (process.env.FUZZ_VERBOSE !== undefined) {
        const silent = new Tally();
        outcomes.forEach((outcome, i) => {
          if (outcome.status === undefined) silent.add(JSON.stringify(inputs[i]!.toString('latin1').slice(0, 70)));
        });
        process.stdout.write(`  closed without an answer:\n    ${silent.sorted().join('\n    ')}\n`);
      }
      for (const line of errorsSince(logged))
        findings.push({ what: 'an error logged by the application', repro: line.slice(0, 1500) });
      if (findings.length > 0)
        throw new Error(report(`${findings.length} finding(s) in ${inputs.length} raw messages`, findings));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `serves ${BURSTS} sessions each used, cancelled, resumed, abandoned and ended by concurrent requests`,
    async () => {
      const logged = logger.entries.length;
      const bursts = fc.sample(sessionBurst, { seed: SEED, numRuns: BURSTS });
      const statuses = new Tally();
      const findings: Finding[] = [];
      let requests = 0;
      const started = performance.now();
      await runPool(bursts, 4, async ({ version, actions }) => {
        const session = await initialize(version);
        const sent = actions.map((action) => ({ action, request: burstRequest(action, session) }));
        requests += sent.length;
        const outcomes = await Promise.all(
          sent.map(async ({ action, request }) => {
            // The burst's generated timing (part of what is fuzzed), not a wait for anything.
            await new Promise((resolve) => setTimeout(resolve, action.delayMs));
            return send(request);
          }),
        );
        const deleted = outcomes.some((outcome, i) => sent[i]!.action.kind === 'delete' && outcome.status === 204);
        outcomes.forEach((outcome, i) => {
          const { request } = sent[i]!;
          statuses.add(`${request.family} ${outcome.abandoned ? 'abandoned' : (outcome.status ?? outcome.error)}`);
          for (const what of findingsOf(request, outcome)) findings.push({ what, repro: reproOf(request, outcome) });
        });
        // Afterwards the session serves, unless it was ended; then it is gone for good.
        const ping = await post(
          { 'mcp-session-id': session.id, 'mcp-protocol-version': version },
          { jsonrpc: '2.0', id: 'after', method: 'ping' },
        );
        if (ping.status !== (deleted ? 404 : 200)) {
          findings.push({
            what: `a ping after the burst answered ${ping.status} (the session was ${deleted ? '' : 'not '}deleted)`,
            repro: sent
              .map(({ action, request }) => `after ${action.delayMs} ms: ${describeRequest(request, 200)}`)
              .join('\n'),
          });
        }
        if (!deleted)
          await send({
            family: 'valid',
            method: 'DELETE',
            path: '/mcp',
            headers: { 'mcp-session-id': session.id, 'mcp-protocol-version': version },
          });
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `[http-fuzz ${TEST_ADAPTER}] bursts: ${requests} requests on ${BURSTS} sessions in ${seconds} s\n  ${statuses}\n`,
      );
      for (const line of errorsSince(logged))
        findings.push({ what: 'an error logged by the application', repro: line.slice(0, 1500) });
      if (findings.length > 0)
        throw new Error(report(`${findings.length} finding(s) in ${requests} burst requests`, findings));
    },
    TEST_TIMEOUT_MS,
  );

  it('still serves afterwards: the abused sessions, a fresh session and a 2026-07-28 request', async () => {
    for (const session of sessions)
      expect(await echoOn(session, `still ${session.version}`)).toBe(`echo: still ${session.version}`);

    // The abused session's stream still opens (no stream was left attached to it).
    const stream = await send({
      family: 'valid',
      method: 'GET',
      path: '/mcp',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sessions[0]!.id,
        'mcp-protocol-version': sessions[0]!.version,
      },
    });
    expect({ status: stream.status, stream: stream.streamClosedByClient }).toEqual({ status: 200, stream: true });

    const fresh = await initialize('2025-11-25');
    expect(await echoOn(fresh, 'fresh')).toBe('echo: fresh');

    const params = {
      name: 'echo',
      arguments: { text: 'modern' },
      _meta: {
        [Meta.ProtocolVersion]: MODERN_VERSION,
        [Meta.ClientCapabilities]: {},
        [Meta.ClientInfo]: { name: 'f', version: '1' },
      },
    };
    const modern = await post(
      { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      { jsonrpc: '2.0', id: 'modern', method: 'tools/call', params },
    );
    expect(modern.status).toBe(200);
    expect(answerOf(modern).result?.content?.[0]?.text).toBe('echo: modern');

    const ended = await send({
      family: 'valid',
      method: 'DELETE',
      path: '/mcp',
      headers: { 'mcp-session-id': fresh.id, 'mcp-protocol-version': fresh.version },
    });
    expect(ended.status).toBe(204);
  });
});

describe('the checks of the HTTP fuzzing', () => {
  const request: FuzzRequest = {
    family: 'self-test',
    method: 'POST',
    path: '/mcp',
    headers: {},
    body: utf8('{"x":"y"}'),
  };
  const outcome = (status: number | undefined, text: string, extra: Partial<FuzzOutcome> = {}): FuzzOutcome => ({
    status,
    headers: { 'content-type': 'application/json' },
    text,
    ms: 1,
    ...extra,
  });
  const stack =
    'TypeError: Cannot read properties of undefined\n    at McpServer.dispatch (/work/main/src/server/mcp.server.ts:120:7)';

  it('find a stack trace, in plain text or inside a JSON string, and the paths in it', () => {
    const plain = findingsOf(request, outcome(400, stack));
    const inJson = findingsOf(request, outcome(400, JSON.stringify({ error: { message: stack } })));
    for (const found of [plain, inJson]) {
      expect(found).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^leak, a stack frame/),
          expect.stringMatching(/^leak, a source location/),
          expect.stringMatching(/^leak, the checkout path/),
          expect.stringMatching(/^leak, a src\/ path/),
          expect.stringMatching(/^leak, an error internal/),
        ]),
      );
    }
    // Express's own error page, outside production.
    const page =
      '<pre>TypeError: boom<br> &nbsp; &nbsp;at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)</pre>';
    expect(findingsOf(request, { ...outcome(500, page), headers: { 'content-type': 'text/html' } })).toEqual(
      expect.arrayContaining(['status 500', expect.stringMatching(/^leak, a stack frame/)]),
    );
    expect(findingsOf(request, outcome(400, 'Error: at node_modules/x/index.js:1:1'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^leak, node_modules/)]),
    );
  });

  it('find a 5xx, a hang, a dropped connection and a JSON answer that does not parse', () => {
    expect(findingsOf(request, outcome(500, '{}'))).toEqual(['status 500']);
    expect(findingsOf(request, outcome(undefined, '', { error: 'timeout' }))[0]).toMatch(/a hang/);
    expect(findingsOf(request, outcome(undefined, '', { error: 'ECONNRESET' }))).toEqual(['no answer: ECONNRESET']);
    expect(findingsOf({ ...request, mayReset: true }, outcome(undefined, '', { error: 'ECONNRESET' }))).toEqual([]);
    expect(findingsOf(request, outcome(200, '{"jsonrpc":'))).toEqual(['a JSON answer that does not parse']);
  });

  it('leave alone what the request itself carried (a tool echoes its text, an error names a method)', () => {
    const echoing: FuzzRequest = { ...request, body: utf8('{"text":"TypeError: see src/app.ts:3 in /work/x"}') };
    const echoed = JSON.stringify({ result: { content: [{ text: 'echo: TypeError: see src/app.ts:3 in /work/x' }] } });
    expect(findingsOf(echoing, outcome(200, echoed))).toEqual([]);
    expect(findingsOf(request, outcome(404, '{"message":"Cannot POST /mcp/x","error":"Not Found"}'))).toEqual([]);
  });
});
