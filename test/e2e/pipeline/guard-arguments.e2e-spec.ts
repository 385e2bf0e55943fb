/**
 * What an item's guards see when it is used (the call phase), over real HTTP: a tool's guards the
 * arguments as sent, a prompt's its arguments, a template's its variables.
 *
 * The test that once failed says, above it, what the bug was and where.
 */
import { Gate } from '../../fixtures/gate.js';
import { probed, slowlyGuardedApp, VISITOR } from '../../fixtures/guarded-items.fixture.js';
import { useRawApp } from '../../utils/raw-http-client.js';

describe('what guards see in the call phase (e2e)', () => {
  const { client } = useRawApp(slowlyGuardedApp('guard-arguments-e2e'), {
    afterEach: (app) => app.get(Gate).releaseAll(),
  });

  beforeEach(() => {
    probed.length = 0;
  });

  test('a tool’s guards see the arguments as sent (README, "Order")', async () => {
    const session = await client.initialize();
    const answer = await client.request(session, 'tools/call', { name: 'r3_probe_tool', arguments: {} }, 1, VISITOR);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'probed' }] });
    expect(probed).toEqual([{ kind: 'tool', arguments: {} }]);
  });

  // Was a bug of 0.3, fixed (its request runner's execute(): the invocation given to the guards was built
  // with `undefined` arguments; only target.execute() gets them): a prompt's guards see no arguments and a
  // template's no variables, where a tool's guards see the arguments as sent (README: "Guards in a call
  // see the arguments as sent"). A guard that authorises by a template variable (the tenant in
  // `tenant://{tenantId}/config`) must then re-parse ctx.uri itself, and a parse that differs from the
  // matcher's (percent-decoding, the loose re-encoding) decides on another value than the handler gets.
  // Fix: pass the raw prompt arguments, and the matched (unvalidated) template variables, to the guards'
  // invocation, as tools do; document it for guards.
  it('a prompt’s guards see its arguments, a template’s its variables', async () => {
    const session = await client.initialize();
    const got = await client.request(
      session,
      'prompts/get',
      { name: 'r3_probe', arguments: { topic: 'x' } },
      1,
      VISITOR,
    );
    expect(got.result).toEqual({
      description: 'Its guard records what it sees',
      messages: [{ role: 'user', content: { type: 'text', text: 'probe x' } }],
    });
    const read = await client.request(session, 'resources/read', { uri: 'r3://item/7' }, 2, VISITOR);
    expect(read.result).toEqual({ contents: [{ uri: 'r3://item/7', text: 'item 7' }] });
    expect(probed).toEqual([
      { kind: 'prompt', arguments: { topic: 'x' } },
      { kind: 'resourceTemplate', arguments: { id: '7' } },
    ]);
  });
});
