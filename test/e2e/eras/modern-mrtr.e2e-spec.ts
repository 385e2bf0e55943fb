/**
 * Multi round-trip requests (2026-07-28 MRTR, SEP-2322) on a real Nest app over raw HTTP: a handler
 * that asks with `ctx.elicit`, `ctx.sample` or `ctx.listRoots` answers `input_required` with its
 * input requests and a sealed `requestState`, and runs again with the client's answers; the state
 * is bound to the principal, the request and its arguments, and expires; answers are checked;
 * capabilities come from the request alone. The same handler on a 2025 session sends real requests.
 * Every message received is checked against the revision's JSON Schema by the modern client.
 */
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpToolRegistry } from '../../../src/index.js';
import { bearer, ModernProbe, modernApp } from '../../fixtures/modern.fixture.js';
import { useModernApp } from '../../utils/modern-app.js';
import {
  expectErrorAnswer,
  ModernClient,
  ModernExchange,
  type ModernRequestOptions,
} from '../../utils/modern-client.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { HttpStream } from '../../utils/sse-reader.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { delay } from '../../utils/wait.js';

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'Paris.' },
  model: 'test-model',
  stopReason: 'endTurn',
};
const ROOTS = { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] };

const text = (result: Record<string, unknown>): string =>
  ((result.content as { text?: string }[]) ?? []).map((block) => block.text ?? '').join('');

const NAME_REQUEST = {
  method: 'elicitation/create',
  params: {
    message: 'What is your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};
/** What the tools added here ask: the form of {@link NAME_REQUEST}. */
const NAME_FORM = {
  message: 'What is your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
};
const SAMPLING_REQUEST = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 100 },
};

/** One round: `tools/call` of `name` with `extra` params (answers, state). */
function callTool(
  client: ModernClient,
  name: string,
  extra: Record<string, unknown> = {},
  options: ModernRequestOptions = {},
): Promise<Record<string, unknown>> {
  return client.result('tools/call', { name, ...extra }, options);
}

describe('2026-07-28 multi round-trip requests (e2e)', () => {
  const app = useModernApp(modernApp({ state: { secret: 'a-secret-of-at-least-thirty-two-bytes!' } }), {
    afterEach: ({ get }) => get(ModernProbe).reset(),
  });
  const client = app.client;
  const probe = (): ModernProbe => app.get(ModernProbe);

  describe('one round', () => {
    it('asks for an elicitation under its key with a requestState, then completes with the answer', async () => {
      const first = await callTool(client, 'ask_name');
      expect(first).toEqual({
        resultType: 'input_required',
        inputRequests: { user_name: NAME_REQUEST },
        requestState: expect.any(String),
        _meta: expect.any(Object),
      });
      const final = await callTool(client, 'ask_name', {
        inputResponses: { user_name: accept({ name: 'Alice' }) },
        requestState: first.requestState,
      });
      expect(final).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Hello, Alice! (modern)' }],
      });
      expect(probe().runs.get('ask_name')).toBe(2);
    });

    it('takes answers without a requestState', async () => {
      const final = await callTool(client, 'ask_name', { inputResponses: { user_name: accept({ name: 'Bo' }) } });
      expect(text(final)).toBe('Hello, Bo! (modern)');
    });

    it('asks for a sampling under its key', async () => {
      const first = await callTool(client, 'ask_capital');
      expect(first.inputRequests).toEqual({ capital_question: SAMPLING_REQUEST });
      const final = await callTool(client, 'ask_capital', {
        inputResponses: { capital_question: SAMPLED },
        requestState: first.requestState,
      });
      expect(text(final)).toBe('model said {"type":"text","text":"Paris."}');
    });

    it('asks for the roots under its key', async () => {
      const first = await callTool(client, 'ask_roots');
      expect(first.inputRequests).toEqual({ client_roots: { method: 'roots/list', params: {} } });
      const final = await callTool(client, 'ask_roots', {
        inputResponses: { client_roots: ROOTS },
        requestState: first.requestState,
      });
      expect(text(final)).toBe('roots: file:///test/root');
    });

    it('asks for several inputs in one round, and completes once all are answered', async () => {
      const first = await callTool(client, 'ask_all');
      expect(first.inputRequests).toEqual({
        user_name: NAME_REQUEST,
        greeting: SAMPLING_REQUEST,
        client_roots: { method: 'roots/list', params: {} },
      });
      const final = await callTool(client, 'ask_all', {
        inputResponses: { user_name: accept({ name: 'Alice' }), greeting: SAMPLED, client_roots: ROOTS },
        requestState: first.requestState,
      });
      expect(text(final)).toBe('name=Alice model=test-model roots=1');
    });

    it('keys unkeyed asks by kind and order', async () => {
      const first = await callTool(client, 'ask_unkeyed');
      expect(Object.keys(first.inputRequests as object).sort()).toEqual(['elicitation-1', 'sampling-2']);
      const final = await callTool(client, 'ask_unkeyed', {
        inputResponses: { 'elicitation-1': accept({ name: 'Kim' }), 'sampling-2': SAMPLED },
        requestState: first.requestState,
      });
      expect(text(final)).toBe('name=Kim model=test-model');
    });

    it('asks again for what is still missing, and only for that', async () => {
      const wrong = await callTool(client, 'ask_name', { inputResponses: { wrong_key: accept({ data: 'wrong' }) } });
      expect(wrong).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: NAME_REQUEST } });
      const first = await callTool(client, 'ask_all');
      const partial = await callTool(client, 'ask_all', {
        inputResponses: { user_name: accept({ name: 'Alice' }) },
        requestState: first.requestState,
      });
      expect(partial.resultType).toBe('input_required');
      expect(Object.keys(partial.inputRequests as object).sort()).toEqual(['client_roots', 'greeting']);
      // The answer given is carried in the new state: the last round answers only the rest.
      const final = await callTool(client, 'ask_all', {
        inputResponses: { greeting: SAMPLED, client_roots: ROOTS },
        requestState: partial.requestState,
      });
      expect(text(final)).toBe('name=Alice model=test-model roots=1');
    });

    it('ignores answers it did not ask for', async () => {
      const final = await callTool(client, 'ask_name', {
        inputResponses: {
          user_name: accept({ name: 'Alice' }),
          unknown_extra_key: accept({ x: 1 }),
          another_unexpected: { whatever: true },
        },
      });
      expect(text(final)).toBe('Hello, Alice! (modern)');
    });

    it.each([
      ['an answer that is not an object', { inputResponses: { user_name: 12345 } }],
      ['an elicitation answer without an action', { inputResponses: { user_name: { content: { name: 'A' } } } }],
      ['content its schema refuses', { inputResponses: { user_name: accept({ name: 5 }) } }],
      ['inputResponses that is not an object', { inputResponses: null }],
      ['inputResponses that is an array', { inputResponses: [accept({ name: 'A' })] }],
      ['a requestState that is not a string', { requestState: 12 }],
    ])('refuses %s with -32602', async (_case, extra) => {
      expect((await client.error(200, 'tools/call', { name: 'ask_name', ...extra })).code).toBe(-32602);
    });

    it('refuses a malformed sampling or roots answer with -32602', async () => {
      expect(
        (
          await client.error(200, 'tools/call', {
            name: 'ask_capital',
            inputResponses: { capital_question: { role: 'x' } },
          })
        ).code,
      ).toBe(-32602);
      expect(
        (
          await client.error(200, 'tools/call', {
            name: 'ask_roots',
            inputResponses: { client_roots: { roots: 'no' } },
          })
        ).code,
      ).toBe(-32602);
    });
  });

  describe('several rounds', () => {
    it('runs the handler again every round, with a new state each time, and ctx.once work only once', async () => {
      const args = { arguments: { item: 'book' } };
      const r1 = await callTool(client, 'order', args);
      expect(r1).toMatchObject({ resultType: 'input_required', inputRequests: { step1: NAME_REQUEST } });
      expect(Object.keys(r1.inputRequests as object)).toEqual(['step1']);
      const r2 = await callTool(client, 'order', {
        ...args,
        inputResponses: { step1: accept({ name: 'Alice' }) },
        requestState: r1.requestState,
      });
      expect(r2).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          step2: { method: 'elicitation/create', params: { message: 'Hello Alice, favourite colour?' } },
        },
      });
      expect(Object.keys(r2.inputRequests as object)).toEqual(['step2']);
      expect(typeof r2.requestState).toBe('string');
      expect(r2.requestState).not.toBe(r1.requestState);
      const r3 = await callTool(client, 'order', {
        ...args,
        inputResponses: { step2: accept({ color: 'blue' }) },
        requestState: r2.requestState,
      });
      expect(text(r3)).toBe('order #1 of book for Alice in blue');
      expect(probe().runs.get('order')).toBe(3);
      expect(probe().sideEffects.get('order')).toBe(1);
    });

    // Was a bug, fixed (src/execution/input-round.ts, once): a ctx.once called once the round had
    // ended (its state sealed) ran its work, whose value no state carried: the next round ran it again.
    it('does not run a ctx.once called after the round ended: the charge happens once across rounds', async () => {
      const refusals: string[] = [];
      const tools = app.get(McpToolRegistry);
      tools.add(
        { name: 'charge_late', description: 'Asks who pays; charges even when the ask fails' },
        async (_args, ctx) => {
          const charge = (): Promise<number> => ctx.once('charge', () => probe().effect('charge'));
          let payer;
          try {
            payer = await ctx.elicit(NAME_FORM, { key: 'payer' });
          } catch (error) {
            // The round ended (the ask is this round's answer): a careless handler charges anyway.
            await charge().catch((refusal: unknown) => refusals.push((refusal as Error).message));
            throw error;
          }
          return `charge #${await charge()} paid by ${String(payer.content?.name)}`;
        },
      );
      try {
        const r1 = await callTool(client, 'charge_late');
        expect(r1).toMatchObject({ resultType: 'input_required', inputRequests: { payer: NAME_REQUEST } });
        expect(refusals).toEqual([
          'ctx.once("charge") cannot run: the round ended (the request is asking the client, or answered)',
        ]);
        expect(probe().sideEffects.get('charge')).toBeUndefined();
        const r2 = await callTool(client, 'charge_late', {
          inputResponses: { payer: accept({ name: 'Alice' }) },
          requestState: r1.requestState,
        });
        expect(text(r2)).toBe('charge #1 paid by Alice');
        expect(probe().sideEffects.get('charge')).toBe(1);
      } finally {
        tools.remove('charge_late');
      }
    });
  });

  describe('the requestState', () => {
    async function firstRound(who: ModernClient = client, item = 'book'): Promise<string> {
      const r1 = await callTool(who, 'order', { arguments: { item } });
      return r1.requestState as string;
    }
    const retry = (state: string, who: ModernClient = client, item = 'book') =>
      who.error(200, 'tools/call', {
        name: 'order',
        arguments: { item },
        inputResponses: { step1: accept({ name: 'Alice' }) },
        requestState: state,
      });

    it('refuses a tampered state with -32602', async () => {
      const state = await firstRound();
      const middle = Math.floor(state.length / 2);
      const flipped = state.slice(0, middle) + (state[middle] === 'A' ? 'B' : 'A') + state.slice(middle + 1);
      for (const tampered of [`${state}-TAMPERED`, flipped, state.slice(0, -2), 'not-a-state']) {
        expect((await retry(tampered)).code).toBe(-32602);
      }
    });

    it('refuses the state of another request: other arguments, another tool', async () => {
      const state = await firstRound();
      expect((await retry(state, client, 'car')).code).toBe(-32602);
      const error = await client.error(200, 'tools/call', {
        name: 'ask_name',
        inputResponses: { user_name: accept({ name: 'Alice' }) },
        requestState: state,
      });
      expect(error.code).toBe(-32602);
    });

    it('refuses the state of another principal', async () => {
      const alice = client.with(bearer('alice'));
      const bob = client.with(bearer('bob'));
      const state = await firstRound(alice);
      expect((await retry(state, bob)).code).toBe(-32602);
      expect((await retry(state, client)).code).toBe(-32602);
      // Alice herself goes on.
      const r2 = await callTool(alice, 'order', {
        arguments: { item: 'book' },
        inputResponses: { step1: accept({ name: 'Alice' }) },
        requestState: state,
      });
      expect(r2.resultType).toBe('input_required');
    });
  });

  describe('capabilities of this request', () => {
    it('refuses with 400 and -32021 naming the capability a handler needs and the request did not declare', async () => {
      const sampling = await client.error(
        400,
        'tools/call',
        { name: 'needs_sampling' },
        { capabilities: { elicitation: {} } },
      );
      expect(sampling).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
      const roots = await client.error(400, 'tools/call', { name: 'ask_roots' }, { capabilities: {} });
      expect(roots).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
    });

    it('tells forms from URLs: each elicitation mode needs its own declaration', async () => {
      const url = await client.error(400, 'tools/call', { name: 'ask_url' }, { capabilities: { elicitation: {} } });
      expect(url).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
      const form = await client.error(
        400,
        'tools/call',
        { name: 'ask_name' },
        { capabilities: { elicitation: { url: {} } } },
      );
      expect(form).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
      const asked = await callTool(client, 'ask_url', {}, { capabilities: { elicitation: { url: {} } } });
      expect(asked.inputRequests).toEqual({
        sign_in: {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in', elicitationId: 'sign-in-1' },
        },
      });
      const done = await callTool(
        client,
        'ask_url',
        { inputResponses: { sign_in: { action: 'accept' } }, requestState: asked.requestState },
        { capabilities: { elicitation: { url: {} } } },
      );
      expect(text(done)).toBe('sign-in: accept');
    });

    it('judges each request by its own declaration', async () => {
      const declared = await callTool(client, 'needs_sampling', {}, { capabilities: { sampling: {} } });
      expect(declared.resultType).toBe('input_required');
      await client.error(400, 'tools/call', { name: 'needs_sampling' }, { capabilities: {} });
    });
  });

  describe('other requests that may ask', () => {
    it('runs prompts/get in rounds', async () => {
      const first = await client.result('prompts/get', { name: 'ask_context' });
      expect(first).toMatchObject({
        resultType: 'input_required',
        inputRequests: { user_context: { method: 'elicitation/create' } },
      });
      const final = await client.result('prompts/get', {
        name: 'ask_context',
        inputResponses: { user_context: accept({ context: 'test context' }) },
        requestState: first.requestState,
      });
      expect(final).toMatchObject({
        resultType: 'complete',
        messages: [{ role: 'user', content: { type: 'text', text: 'Use this context: test context' } }],
      });
    });

    it('runs resources/read in rounds', async () => {
      const first = await client.result('resources/read', { uri: 'test://confirmed' });
      expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: expect.any(Object) } });
      const final = await client.result('resources/read', {
        uri: 'test://confirmed',
        inputResponses: { confirm: accept({ ok: true }) },
        requestState: first.requestState,
      });
      expect(final).toMatchObject({ resultType: 'complete', contents: [{ text: 'the secret contents' }] });
    });

    it('binds a resource read state to its URI', async () => {
      const first = await client.result('resources/read', { uri: 'test://confirmed' });
      const error = await client.error(200, 'tools/call', {
        name: 'ask_name',
        inputResponses: { user_name: accept({ name: 'A' }) },
        requestState: first.requestState,
      });
      expect(error.code).toBe(-32602);
    });

    it('lets completion/complete not ask: an error, never input_required', async () => {
      const exchange = await client.send('completion/complete', {
        ref: { type: 'ref/prompt', name: 'ask_context' },
        argument: { name: 'topic', value: '' },
      });
      expect(exchange.response?.error).toEqual(expect.objectContaining({ code: expect.any(Number) }));
      expect(exchange.response?.result).toBeUndefined();
    });

    it('never answers a list with input_required', async () => {
      for (const method of ['tools/list', 'prompts/list', 'resources/list']) {
        expect((await client.result(method)).resultType).toBe('complete');
      }
    });
  });

  describe('the same handler on a 2025 session', () => {
    const sdk = useSdkClients();

    it('asks with real requests to the client, and keeps ctx.once within the call', async () => {
      const asked: unknown[] = [];
      const { client: sdkClient } = await sdk.connect(app.running.mcpUrl, {
        capabilities: { elicitation: {} },
        prepare: (c) =>
          c.setRequestHandler(ElicitRequestSchema, (request) => {
            asked.push(request.params.message);
            return { action: 'accept', content: asked.length === 1 ? { name: 'Sam' } : { color: 'green' } };
          }),
      });
      const name = await sdkClient.callTool({ name: 'ask_name', arguments: {} });
      expect(name.content).toEqual([{ type: 'text', text: 'Hello, Sam! (legacy)' }]);
      asked.length = 0;
      const order = await sdkClient.callTool({ name: 'order', arguments: { item: 'lamp' } });
      expect(order.content).toEqual([{ type: 'text', text: 'order #1 of lamp for Sam in green' }]);
      expect(asked).toEqual(['What is your name?', 'Hello Sam, favourite colour?']);
      expect(probe().runs.get('order')).toBe(1);
      expect(probe().sideEffects.get('order')).toBe(1);
    });
  });
});

describe('2026-07-28 rounds that cannot go on (e2e)', () => {
  const logger = new RecordingLogger();
  const app = useModernApp(modernApp(), { logger, afterEach: () => (logger.entries.length = 0) });
  const client = app.client;

  /**
   * A retry of `ask_name` with the arguments `{ deep: [[[...0...]]] }`, `levels` arrays deep, written
   * by hand (JSON.stringify itself overflows long before 100 000 levels; JSON.parse does not).
   */
  async function retryNested(levels: number): Promise<ModernExchange> {
    const params = { name: 'ask_name' };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: `deep-${levels}`,
      method: 'tools/call',
      params: client.paramsOf({
        ...params,
        arguments: { deep: 'NESTED' },
        inputResponses: { user_name: accept({ name: 'Alice' }) },
        requestState: 'any-state',
      }),
    }).replace('"NESTED"', `${'['.repeat(levels)}0${']'.repeat(levels)}`);
    const stream = await HttpStream.open(app.running.mcpUrl, 'POST', client.headersOf('tools/call', params), body);
    const exchange = new ModernExchange(stream, 'tools/call', `deep-${levels}`);
    await exchange.untilEnd();
    return exchange;
  }

  // Was a bug, fixed (src/sealing/digest.ts): the digest of the arguments recursed without bound; a
  // request nested deep enough overflowed the stack, answered -32603 and logged as a server failure.
  it('refuses with -32602 arguments nested too deep to bind a requestState to, logging no error', async () => {
    for (const levels of [257, 100_000]) {
      expect(expectErrorAnswer(await retryNested(levels), 200)).toEqual({
        code: -32602,
        message: 'Invalid params: arguments are nested deeper than 256 levels',
      });
    }
    expect(logger.at('error')).toEqual([]);
  });

  // Was a bug, fixed (src/execution/running-call.ts, abortedAnswer): without a requestState to open,
  // the digest is first needed to seal the next one, and its -32602 was taken for a failure to seal:
  // answered -32603 and logged as an error, which any client could cause at will.
  it('refuses with -32602 arguments nested too deep to seal a requestState for, logging no error', async () => {
    let deep: unknown = 0;
    for (let level = 0; level < 257; level++) deep = [deep];
    expect(await client.error(200, 'tools/call', { name: 'order', arguments: { item: 'book', deep } })).toEqual({
      code: -32602,
      message: 'Invalid params: arguments are nested deeper than 256 levels',
    });
    expect(logger.at('error')).toEqual([]);
  });

  // Was a bug, fixed (src/execution/request-state.ts, running-call.ts): a state too large to seal was
  // answered -32602, blaming the client for what the handler kept, and nothing was logged.
  it('answers -32603 and logs an error naming the item when what ctx.once keeps is too big to seal', async () => {
    const tools = app.get(McpToolRegistry);
    tools.add({ name: 'hoarder', description: 'Keeps too much across rounds' }, async (_args, ctx) => {
      await ctx.once('hoard', () => 'x'.repeat(600 * 1024));
      await ctx.elicit(NAME_FORM, { key: 'who' });
      return 'never';
    });
    try {
      expect(await client.error(200, 'tools/call', { name: 'hoarder' })).toEqual({
        code: -32603,
        message: 'Internal error',
      });
    } finally {
      tools.remove('hoarder');
    }
    expect(logger.at('error')).toEqual([
      expect.stringMatching(
        /^Tool hoarder could not carry its state to the next round; answered with an internal error \| .*524288 characters sealed/,
      ),
    ]);
  });
});

describe('2026-07-28 requestState across instances (e2e)', () => {
  const SHARED = 'shared-secret-of-the-whole-deployment-0123456789';
  let apps: RunningApp[] = [];
  let first: ModernClient;
  let sameSecret: ModernClient;
  let otherSecret: ModernClient;

  beforeAll(async () => {
    apps = await Promise.all([
      startApp(modernApp({ state: { secret: SHARED } })),
      startApp(modernApp({ state: { secret: SHARED } })),
      startApp(modernApp({ state: { secret: 'another-secret-of-another-deployment-9876543210' } })),
    ]);
    [first, sameSecret, otherSecret] = apps.map((running) => new ModernClient(() => running.mcpUrl));
  });

  afterAll(async () => {
    await Promise.all(apps.map((running) => running.close()));
  });

  const round2 = { name: 'ask_name', inputResponses: { user_name: accept({ name: 'Alice' }) } };

  it('opens on another instance with the same stateSecret what one sealed', async () => {
    const r1 = await first.result('tools/call', { name: 'ask_name' });
    const final = await sameSecret.result('tools/call', { ...round2, requestState: r1.requestState });
    expect(text(final)).toBe('Hello, Alice! (modern)');
  });

  it('refuses on an instance with another stateSecret what one sealed', async () => {
    const r1 = await first.result('tools/call', { name: 'ask_name' });
    expect((await otherSecret.error(200, 'tools/call', { ...round2, requestState: r1.requestState })).code).toBe(
      -32602,
    );
  });
});

describe('2026-07-28 requestState expiry (e2e)', () => {
  const app = useModernApp(modernApp({ state: { requestStateTtlMs: 250 } }));

  it('refuses a state past its requestStateTtlMs with -32602', async () => {
    const r1 = await app.client.result('tools/call', { name: 'ask_name' });
    const answers = { name: 'ask_name', inputResponses: { user_name: accept({ name: 'Alice' }) } };
    // A fixed wait on purpose: the state's time to live (250 ms) running out is what is tested.
    await delay(300);
    expect((await app.client.error(200, 'tools/call', { ...answers, requestState: r1.requestState })).code).toBe(
      -32602,
    );
    // A fresh state is taken.
    const fresh = await app.client.result('tools/call', { name: 'ask_name' });
    expect(text(await app.client.result('tools/call', { ...answers, requestState: fresh.requestState }))).toBe(
      'Hello, Alice! (modern)',
    );
  });
});

describe('stateSecret rotation (e2e)', () => {
  const OLD = 'the-old-secret-of-the-deployment-0123456789';
  const NEW = 'the-new-secret-of-the-deployment-9876543210';
  let apps: RunningApp[] = [];
  let oldOnly: ModernClient;
  let rotated: ModernClient;

  // Was not possible before (src/sealing/sealer.ts, src/dispatch/cursor-seal.ts): one secret only.
  beforeAll(async () => {
    apps = await Promise.all([
      startApp(modernApp({ limits: { pageSize: 2 }, state: { secret: OLD } })),
      startApp(modernApp({ limits: { pageSize: 2 }, state: { secret: [NEW, OLD] } })),
    ]);
    [oldOnly, rotated] = apps.map((running) => new ModernClient(() => running.mcpUrl));
  });

  afterAll(async () => {
    await Promise.all(apps.map((running) => running.close()));
  });

  const round2 = { name: 'ask_name', inputResponses: { user_name: accept({ name: 'Alice' }) } };

  it('opens a requestState sealed with the old secret', async () => {
    const r1 = await oldOnly.result('tools/call', { name: 'ask_name' });
    const final = await rotated.result('tools/call', { ...round2, requestState: r1.requestState });
    expect(text(final)).toBe('Hello, Alice! (modern)');
  });

  it('seals with the new secret: an instance with the old one alone cannot open its state', async () => {
    const r1 = await rotated.result('tools/call', { name: 'ask_name' });
    expect((await oldOnly.error(200, 'tools/call', { ...round2, requestState: r1.requestState })).code).toBe(-32602);
    expect(text(await rotated.result('tools/call', { ...round2, requestState: r1.requestState }))).toBe(
      'Hello, Alice! (modern)',
    );
  });

  it('opens list cursors sealed with the old secret, and seals its own with the new one', async () => {
    const fromOld = await oldOnly.result('tools/list');
    expect(typeof fromOld.nextCursor).toBe('string');
    const next = await rotated.result('tools/list', { cursor: fromOld.nextCursor });
    expect(next.tools).toHaveLength(2);
    const fromRotated = await rotated.result('tools/list');
    expect((await oldOnly.error(200, 'tools/list', { cursor: fromRotated.nextCursor })).code).toBe(-32602);
  });
});
