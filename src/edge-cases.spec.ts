/**
 * Edge cases, pure units: the request runner's timers under cancellation, URI
 * template matching of equivalent URIs, definition fields given as null, and what the deeper
 * content-block checks do to tool results that used to reach clients.
 *
 * Tests that first failed say above them what the bug was and where.
 */
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { CallToolResultSchema, ListResourcesResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpCallAbortedError } from './errors/mcp-call-aborted.error.js';
import { McpRequestRunner, type ItemRequest, type ServedHandler } from './execution/mcp-request.runner.js';
import type { PipelineTarget } from './execution/pipeline-target.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import { RequestCancelledError } from './protocol/dispatcher.js';
import { buildResourceDefinition, buildTemplateDefinition } from './resources/resource-definition.factory.js';
import { UriTemplate } from './resources/uri-template.js';
import { McpSchemas } from './schemas/mcp-schemas.js';
import type { McpCallContext } from './execution/mcp-call-context.js';
import type { McpSession } from './session/mcp-session.js';
import { isMalformedCallToolResult, toCallToolResult } from './tools/tool-result.mapper.js';

describe('McpRequestRunner: timers of a request cancelled while its guards decide', () => {
  /** The calls of a session, as McpSession keeps them: enough for the runner. */
  function sessionStub(): { session: McpSession; controllers: Map<unknown, AbortController> } {
    const controllers = new Map<unknown, AbortController>();
    const session = {
      id: 'session-1',
      isRunning: (id: unknown) => controllers.has(id),
      beginCall: (id: unknown) => {
        const controller = new AbortController();
        controllers.set(id, controller);
        return controller;
      },
      endCall: (id: unknown, controller: AbortController) => {
        if (controllers.get(id) === controller) controllers.delete(id);
      },
    };
    return { session: session as unknown as McpSession, controllers };
  }

  const options = { clientRequestTimeoutMs: 60_000, scopesOf: () => [] } as unknown as ResolvedMcpOptions;
  const item: ItemRequest = { kind: 'prompt', name: 'slow_prompt' };
  const flush = async (): Promise<void> => {
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  };

  /** A handler with a long timeoutMs whose guard answers when the test says. */
  function guardedHandler(): { handler: ServedHandler; admit: (verdict: boolean) => void } {
    let admit!: (verdict: boolean) => void;
    const target: PipelineTarget = {
      canActivate: () => new Promise<boolean>((resolve) => (admit = resolve)),
      execute: () => Promise.resolve('rendered'),
      reportsErrors: false,
    };
    return { handler: { owner: 'Prompts.slow', timeoutMs: 3_600_000, target: () => target }, admit: (v) => admit(v) };
  }

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });

  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  test('a request that is not cancelled leaves no timer behind', async () => {
    const runner = new McpRequestRunner(options, new McpSchemas());
    const { session } = sessionStub();
    const call: McpCallContext = { session, httpRequest: {}, headers: {} };
    const { handler, admit } = guardedHandler();
    const running = runner.run(1, call, item, (state) => runner.execute(handler, item, call, () => ({}), state));
    await flush();
    admit(true);
    expect(await running).toEqual({ denied: false, value: 'rendered' });
    expect(jest.getTimerCount()).toBe(0);
  });

  // Was a bug, fixed (src/execution/mcp-request.runner.ts:178 RunState.admit, called from execute() at line 228):
  // run() answers a cancelled request at once and clears its timeout timer in `finally` (line 192),
  // but the work goes on; when the guards admit afterwards, admit() starts the item's timeoutMs timer,
  // which nothing ever clears. Each request cancelled (or whose session ended) while its guards decided
  // leaves a timer, and the AbortController it holds, for up to timeoutMs (here an hour; at most 24 days).
  // Fix: make admit() a no-op once run() has finished (a `finished` flag set in its finally), or check
  // `signal.aborted` before starting the timer.
  it('a request cancelled while its guards decide leaves no timer once they admit', async () => {
    const runner = new McpRequestRunner(options, new McpSchemas());
    const { session, controllers } = sessionStub();
    const call: McpCallContext = { session, httpRequest: {}, headers: {} };
    const { handler, admit } = guardedHandler();
    const running = runner.run(1, call, item, (state) => runner.execute(handler, item, call, () => ({}), state));
    await flush();
    controllers.get(1)!.abort(new McpCallAbortedError('cancelled', 'the client cancelled'));
    await expect(running).rejects.toBeInstanceOf(RequestCancelledError);
    expect(controllers.size).toBe(0);
    admit(true);
    await flush();
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('UriTemplate: URIs equivalent to an expansion', () => {
  test('upper-case percent-encoding matches (the reference)', () => {
    expect(new UriTemplate('files://docs/{name}').match('files://docs/caf%C3%A9')).toEqual({ name: 'café' });
    expect(new UriTemplate('files://docs/{name}{?q}').match('files://docs/a?q=caf%c3%a9')).toEqual({
      name: 'a',
      q: 'café',
    });
  });

  // Was a bug, fixed (src/resources/uri-template.ts:100 match(): uri-template-router only takes upper-case hex digits in
  // pct-encoded triplets of the path): RFC 3986 §2.1 makes "%c3%a9" and "%C3%A9" equivalent, and the
  // query part (read by mcp42 itself, decodeURIComponent) already takes both; a client or proxy that
  // writes lower-case hex gets -32002 for a resource that exists.
  // Fix: in match(), when the strict match fails, retry once with /%[0-9a-f]{2}/gi upper-cased
  // (as the encodeLoose retry does).
  it('lower-case percent-encoding in the path matches as upper-case does', () => {
    expect(new UriTemplate('files://docs/{name}').match('files://docs/caf%c3%a9')).toEqual({ name: 'café' });
    expect(new UriTemplate('files://docs/{name}').match('files://docs/a%2fb')).toEqual({ name: 'a/b' });
    expect(new UriTemplate('files://{+path}').match('files://a/caf%c3%a9')).toEqual({ path: 'a/café' });
  });

  // Was a bug, fixed (low; src/resources/uri-template.ts:90-92 and uri-template-router): RFC 6570 §3.1 expands a
  // literal that is not allowed in a URI (here "é") percent-encoded, so `docs://café/{x}` expands to
  // `docs://caf%C3%A9/a`; the template matches only the IRI form `docs://café/a`. (The reverse works: a
  // template written `caf%C3%A9` matches the IRI through encodeLoose.)
  // Fix: when the strict and loose matches fail, retry with the URI's unreserved-safe pct-encoded
  // non-ASCII sequences decoded, or compile the template with its non-ASCII literals pct-encoded and
  // always match encodeLoose(uri).
  it('a template with a non-ASCII literal matches its own RFC 6570 expansion', () => {
    const template = new UriTemplate('docs://café/{x}');
    expect(template.match('docs://café/a')).toEqual({ x: 'a' });
    expect(template.match('docs://caf%C3%A9/a')).toEqual({ x: 'a' });
  });
});

describe('resource definitions: a field given as null', () => {
  // Was a bug, fixed (src/resources/resource-definition.factory.ts:92-103): the MIME type check lets `null` through
  // on purpose ("null is absent", as optionalText() does for title and description), but
  // `optional('mimeType', null)` keeps it, so the definition advertises `"mimeType": null`. The
  // reference SDK client then rejects the whole resources/list (and every read of it, whose contents
  // get the declared mimeType null). A runtime addResource() from a database row is the typical source.
  // Fix: `...optional('mimeType', options.mimeType ?? undefined)`.
  it('mimeType null is absent from the advertised definition', () => {
    const resource = buildResourceDefinition({ uri: 'db://row/1', mimeType: null } as never, 'row', 'runtime resource');
    expect(resource).toEqual({ uri: 'db://row/1', name: 'row' });
    expect(ListResourcesResultSchema.safeParse({ resources: [resource] }).success).toBe(true);
    const { definition } = buildTemplateDefinition(
      { uriTemplate: 'db://row/{id}', mimeType: null } as never,
      'rows',
      'runtime resource template',
    );
    expect(definition).toEqual({ uriTemplate: 'db://row/{id}', name: 'rows' });
  });
});

describe('tool results after the deep content-block checks (regression risk)', () => {
  /** "hello world" as MIME base64 (a line break, as base64.encodebytes or openssl write it). */
  const WRAPPED = 'aGVsbG8g\nd29ybGQ=';
  /** "ab" as base64 without its padding. */
  const UNPADDED = 'YWI';

  test('the reference SDK client accepts both (it decodes with atob, which skips whitespace and padding)', () => {
    for (const data of [WRAPPED, UNPADDED]) {
      const result = { content: [{ type: 'image', data, mimeType: 'image/png' }] };
      expect(CallToolResultSchema.safeParse(result).success).toBe(true);
    }
  });

  // Was a regression, fixed (src/tools/tool-result.mapper.ts:60-61 image/audio rules with isBase64, from
  // src/content/content.helpers.ts:230-238): at 136ce3e these blocks were sent as they were, and
  // the reference client accepts them; now the block fails the check, toCallToolResult() no longer sees
  // content blocks, and the model gets the JSON text of the whole array (the base64 payload as text)
  // instead of an image. No error, no log.
  // Fix: accept what clients decode (strip ASCII whitespace, allow missing padding) and normalise it
  // (Buffer.from(data, 'base64').toString('base64')), or at least log when a result is turned into JSON.
  it.each([
    ['wrapped', WRAPPED, 'hello world'],
    ['unpadded', UNPADDED, 'ab'],
  ])('a tool returning an image block with %s base64 still sends an image', (_kind, data, decoded) => {
    const result = toCallToolResult([{ type: 'image', data, mimeType: 'image/png' }]);
    expect(result.content).toHaveLength(1);
    const block = result.content[0] as { type: string; data: string; mimeType: string };
    expect(block.type).toBe('image');
    expect(block.mimeType).toBe('image/png');
    expect(Buffer.from(block.data, 'base64').toString()).toBe(decoded);
  });

  // Was a bug: a CallToolResult with `isError: true` one of whose blocks failed a check was sent as JSON
  // text, `isError` lost. Such a value is now recognised, and the invoker answers it as an error result
  // (see tool.invoker.pipeline.spec.ts).
  it('an error result with a malformed block is recognised as a malformed result', () => {
    const malformed = {
      content: [
        { type: 'text', text: 'the chart could not be drawn' },
        { type: 'image', data: 'YW-_', mimeType: 'image/png' },
      ],
      isError: true,
    };
    expect(isMalformedCallToolResult(malformed)).toBe(true);
    expect(isMalformedCallToolResult({ ...malformed, content: [malformed.content[0]] })).toBe(false);
    expect(isMalformedCallToolResult({ content: [{ type: 'bogus' }] })).toBe(false);
  });
});
