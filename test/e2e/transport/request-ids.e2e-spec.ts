/**
 * Request ids in flight, over real HTTP: a second tools/call with the id of a running one is
 * refused with -32600 without running (also the second of two in one 2025-03-26 batch), the id is
 * free again once the first is answered, and ids are per session. How hidden and unknown items are
 * refused alike with an id in use is in pipeline/hidden-items.e2e-spec.ts.
 */
import { McpModule } from '../../../src/index.js';
import { HoldTools } from '../../fixtures/note.tools.js';
import type { HttpResult } from '../../utils/http-exchange.js';
import { bodyOf, HttpMcpClient, type ReplyBody } from '../../utils/http-mcp-client.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { delay } from '../../utils/wait.js';

describe('request ids in flight (e2e)', () => {
  let running: RunningApp;
  let tools: HoldTools;
  let client: HttpMcpClient;

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'request-ids-e2e', version: '1.0.0' })],
      providers: [HoldTools],
    });
    tools = running.app.get(HoldTools);
    client = new HttpMcpClient(running.mcpUrl);
    await client.initialize();
  });

  afterEach(() => {
    tools.gate.releaseAll();
  });

  afterAll(async () => {
    await running?.close();
  });

  it('refuses a second tools/call with the id of a running one (-32600); the id is free again afterwards', async () => {
    const first = client.call('hold', {}, 7);
    await tools.gate.whenWaiting(1);

    // Were the second call run, it would wait on the gate: race its start against its reply, so such a
    // failure is reported at once instead of hanging.
    const secondRan = tools.gate.whenWaiting(2).then(() => 'the second call ran' as const);
    const outcome = await Promise.race([client.call('hold', {}, 7), secondRan]);
    if (outcome === 'the second call ran') tools.gate.releaseAll();
    expect(outcome).not.toBe('the second call ran');
    const second = outcome as HttpResult;
    expect(second.status).toBe(200);
    const refused = bodyOf(second);
    expect(refused.id).toBe(7);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.result).toBeUndefined();

    tools.gate.releaseAll();
    expect(bodyOf(await first)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'released' }] },
    });

    const again = client.call('hold', {}, 7);
    await tools.gate.whenWaiting(1);
    tools.gate.releaseAll();
    expect(bodyOf(await again).result).toEqual({ content: [{ type: 'text', text: 'released' }] });
  });

  it('refuses the second of two same-id calls to a tool with an input DTO in one 2025-03-26 batch', async () => {
    const old = new HttpMcpClient(running.mcpUrl);
    await old.initialize('2025-03-26');
    const call = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'hold_note', arguments: { text: 'a' } },
    };
    const reply = old.post([call, call]);
    await tools.gate.whenWaiting(1);
    // A fixed wait on purpose: the second call must NOT start, and 50 ms is time enough for it to.
    await delay(50);
    const runningCalls = tools.gate.waiting;
    tools.gate.releaseAll();
    const replies = JSON.parse((await reply).text) as ReplyBody[];

    expect(runningCalls).toBe(1);
    expect(replies).toHaveLength(2);
    expect(replies.map((body) => body.error?.code ?? 'result').sort()).toEqual([-32600, 'result']);
  });

  it('the same id on another session is not in use', async () => {
    const other = new HttpMcpClient(running.mcpUrl);
    await other.initialize();
    const first = client.call('hold', {}, 'shared');
    await tools.gate.whenWaiting(1);
    const second = other.call('hold', {}, 'shared');
    await tools.gate.whenWaiting(2);
    tools.gate.releaseAll();
    expect(bodyOf(await first).result).toEqual({ content: [{ type: 'text', text: 'released' }] });
    expect(bodyOf(await second).result).toEqual({ content: [{ type: 'text', text: 'released' }] });
  });
});
