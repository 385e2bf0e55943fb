import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { Sealer } from '../sealing/sealer.js';
import { CallAbort } from '../session/call-abort.js';
import { InputRound } from './input-round.js';
import { InputRoundSlot } from './input-round-slot.js';
import { nextTurn } from '../../test/utils/wait.js';

const settings = { sealer: Sealer.fromSecret('input-round-slot spec secret 32B'), stateTtlMs: 60_000 };
const binding = { principal: '', item: 'tools/call\0book', args: 'digest' };

describe('InputRoundSlot', () => {
  it('opens no round until one is needed, then the same one every time', () => {
    let opened = 0;
    const slot = new InputRoundSlot(() => {
      opened++;
      return new InputRound(settings, binding, {});
    });
    expect(slot.opened).toBeUndefined();
    expect(opened).toBe(0);
    const round = slot.get();
    expect(slot.get()).toBe(round);
    expect(slot.opened).toBe(round);
    expect(opened).toBe(1);
  });

  it("aborts the call it was given with kind 'input-required' when the round must ask the client", async () => {
    const slot = new InputRoundSlot(() => new InputRound(settings, binding, {}));
    const call = new CallAbort();
    slot.call = call;
    const asked = slot.get().ask('roots/list', {}, undefined, () => undefined);
    asked.catch(() => undefined);
    await nextTurn();
    await nextTurn();
    expect(call.aborted).toBe(true);
    expect(call.reason).toBeInstanceOf(McpCallAbortedError);
    expect((call.reason as McpCallAbortedError).kind).toBe('input-required');
    expect(slot.opened!.inputRequired().inputRequests).toEqual({ 'roots-1': { method: 'roots/list', params: {} } });
  });
});

describe('InputRoundSlot after the request had its answer', () => {
  it('refuses a late ask and a late once, in a round opened only then, and aborts nothing', async () => {
    const slot = new InputRoundSlot(() => new InputRound(settings, binding, {}));
    const call = new CallAbort();
    slot.call = call;
    slot.close(() => new Error('answered'));
    await expect(slot.get().ask('roots/list', {}, undefined, () => undefined)).rejects.toThrow(
      'the request has its answer',
    );
    let ran = false;
    await expect(
      slot.get().once('k', () => {
        ran = true;
        return 1;
      }),
    ).rejects.toThrow('the round ended');
    await nextTurn();
    await nextTurn();
    expect(ran).toBe(false);
    expect(call.aborted).toBe(false);
  });

  it('fails the pending asks of an open round with the reason given', async () => {
    const slot = new InputRoundSlot(() => new InputRound(settings, binding, {}));
    const asked = slot.get().ask('roots/list', {}, undefined, () => undefined);
    const reason = new Error('withdrawn');
    slot.close(() => reason);
    await expect(asked).rejects.toBe(reason);
  });
});
