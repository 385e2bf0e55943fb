import { jest } from '@jest/globals';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { JsonRpcParams } from '../protocol/json-rpc.types.js';
import { digestOf } from '../sealing/digest.js';
import { Sealer } from '../sealing/sealer.js';
import { InputProtocolError } from './input-protocol.error.js';
import { InputRound, type InputRoundSettings, type RoundInputs } from './input-round.js';
import { openRequestState, type CarriedState, type StateBinding } from './request-state.js';
import { thrown, thrownBy } from '../../test/utils/thrown.js';
import { nextTurn } from '../../test/utils/wait.js';

const ELICIT = 'elicitation/create';
const SAMPLE = 'sampling/createMessage';
const ROOTS = 'roots/list';

const settings: InputRoundSettings = {
  sealer: Sealer.fromSecret('input-round spec secret of 32 B!'),
  stateTtlMs: 60_000,
};

const binding: StateBinding = { principal: 'alice', item: 'tools/call\0book', args: digestOf({ seats: 2 }) };

const NOW = 1_700_000_000_000;

const elicitParams: JsonRpcParams = {
  mode: 'form',
  message: 'Which seat?',
  requestedSchema: { type: 'object', properties: { seat: { type: 'string' } } },
};
const sampleParams: JsonRpcParams = { messages: [], maxTokens: 10 };

const accepted = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** Every answer is well formed. */
const wellFormed = (): undefined => undefined;

function roundOf(inputs: RoundInputs = {}, now = NOW): InputRound {
  return new InputRound(settings, binding, inputs, now);
}

/** A round whose end is counted. */
function watched(inputs: RoundInputs = {}, now = NOW): { round: InputRound; ends: jest.Mock<() => void> } {
  const round = roundOf(inputs, now);
  const ends = jest.fn<() => void>();
  round.onNeedsInput = ends;
  return { round, ends };
}

/** Whether `promise` is still pending once the current turn and the next are over. */
async function isPending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await nextTurn();
  await nextTurn();
  return !settled;
}

/** An ask whose eventual rejection (at close) is expected and kept, to look at. */
function keptAsk(round: InputRound, method: string, params: JsonRpcParams, key?: string): Promise<unknown> {
  const asked = round.ask(method, params, key, wellFormed);
  asked.catch(() => undefined);
  return asked;
}

/** An ask left pending: only what it does to the round matters (its rejection at close is kept). */
function pendingAsk(round: InputRound, method: string, params: JsonRpcParams, key?: string): void {
  void keptAsk(round, method, params, key);
}

/** The state an interim result carries, opened. */
function carried(requestState: string | undefined, now = NOW): CarriedState {
  if (requestState === undefined) throw new Error('expected a requestState');
  return openRequestState(settings.sealer, requestState, binding, now);
}

describe('InputRound: answers the client gave', () => {
  it('answers from inputResponses, without any requestState', async () => {
    const answer = accepted({ seat: '12A' });
    const { round, ends } = watched({ inputResponses: { 'elicitation-1': answer } });
    await expect(round.ask(ELICIT, elicitParams, undefined, wellFormed)).resolves.toBe(answer);
    expect(round.needsInput).toBe(false);
    await nextTurn();
    expect(ends).not.toHaveBeenCalled();
  });

  it('checks an answer with problemOf before handing it over', async () => {
    const answer = accepted({ seat: '12A' });
    const problemOf = jest.fn<(answer: unknown) => string | undefined>(() => undefined);
    const round = roundOf({ inputResponses: { seat: answer } });
    await round.ask(ELICIT, elicitParams, 'seat', problemOf);
    expect(problemOf).toHaveBeenCalledWith(answer);
  });

  it('refuses a malformed answer with an InputProtocolError -32602 naming the input', async () => {
    const { round, ends } = watched({ inputResponses: { 'elicitation-1': 12345 } });
    const error = await thrown(round.ask(ELICIT, elicitParams, undefined, () => 'it must be an object'));
    expect(error).toBeInstanceOf(InputProtocolError);
    expect(error).toBeInstanceOf(McpClientRequestError);
    const { code, message, data } = error as InputProtocolError;
    expect({ code, message, data }).toStrictEqual({
      code: -32602,
      message: 'The answer to input "elicitation-1" (elicitation/create) is malformed: it must be an object',
      data: { inputResponse: 'elicitation-1' },
    });
    expect(round.needsInput).toBe(false);
    await nextTurn();
    expect(ends).not.toHaveBeenCalled();
  });

  it('ignores answers to inputs that are not asked', async () => {
    const { round, ends } = watched({ inputResponses: { wrong_key: accepted({ data: 'wrong' }) } });
    pendingAsk(round, ELICIT, elicitParams);
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
    expect(Object.keys(round.inputRequired(NOW).inputRequests!)).toStrictEqual(['elicitation-1']);
  });
});

describe('InputRound: asks without an answer', () => {
  it('records the ask and ends the round at the end of the turn, not before', async () => {
    const { round, ends } = watched();
    const asked = keptAsk(round, ELICIT, elicitParams);
    expect(round.needsInput).toBe(true);
    expect(ends).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(ends).not.toHaveBeenCalled();
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
    expect(await isPending(asked)).toBe(true);
  });

  it('answers the round with input_required naming what to ask', () => {
    const round = roundOf();
    pendingAsk(round, ELICIT, elicitParams);
    const result = round.inputRequired(NOW);
    expect(result.resultType).toBe('input_required');
    expect(result.inputRequests).toStrictEqual({ 'elicitation-1': { method: ELICIT, params: elicitParams } });
    expect(typeof result.requestState).toBe('string');
  });

  it('puts several asks of one turn in one round, told once', async () => {
    const { round, ends } = watched();
    pendingAsk(round, ELICIT, elicitParams);
    await Promise.resolve();
    pendingAsk(round, SAMPLE, sampleParams);
    await Promise.resolve().then(() => undefined);
    pendingAsk(round, ROOTS, {});
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
    expect(round.inputRequired(NOW).inputRequests).toStrictEqual({
      'elicitation-1': { method: ELICIT, params: elicitParams },
      'sampling-2': { method: SAMPLE, params: sampleParams },
      'roots-3': { method: ROOTS, params: {} },
    });
  });

  it('tells the end only once, even when more is asked in a later turn', async () => {
    const { round, ends } = watched();
    pendingAsk(round, ELICIT, elicitParams);
    await nextTurn();
    pendingAsk(round, SAMPLE, sampleParams);
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
  });

  it('names unkeyed asks by kind and order, across kinds', () => {
    const round = roundOf();
    pendingAsk(round, ELICIT, elicitParams);
    pendingAsk(round, SAMPLE, sampleParams);
    pendingAsk(round, ROOTS, {});
    pendingAsk(round, ELICIT, elicitParams);
    pendingAsk(round, 'other/method', {});
    expect(Object.keys(round.inputRequired(NOW).inputRequests!)).toStrictEqual([
      'elicitation-1',
      'sampling-2',
      'roots-3',
      'elicitation-4',
      'input-5',
    ]);
  });

  it('uses explicit keys as given, without using up an ordinal', () => {
    const round = roundOf();
    pendingAsk(round, ELICIT, elicitParams, 'user_name');
    pendingAsk(round, SAMPLE, sampleParams);
    expect(Object.keys(round.inputRequired(NOW).inputRequests!)).toStrictEqual(['user_name', 'sampling-1']);
  });

  it('counts answered asks in the order too', async () => {
    const round = roundOf({ inputResponses: { 'elicitation-1': accepted({}) } });
    await round.ask(ELICIT, elicitParams, undefined, wellFormed);
    pendingAsk(round, SAMPLE, sampleParams);
    expect(Object.keys(round.inputRequired(NOW).inputRequests!)).toStrictEqual(['sampling-2']);
  });

  it('refuses a key asked twice with a TypeError', async () => {
    const round = roundOf();
    pendingAsk(round, ELICIT, elicitParams, 'k');
    const error = await thrown(round.ask(SAMPLE, sampleParams, 'k', wellFormed));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('The input key "k" is asked twice in one request');
    expect(Object.keys(round.inputRequired(NOW).inputRequests!)).toStrictEqual(['k']);
  });

  it('refuses a key asked twice even once it was answered', async () => {
    const round = roundOf({ inputResponses: { k: accepted({}) } });
    await round.ask(ELICIT, elicitParams, 'k', wellFormed);
    const error = await thrown(round.ask(ELICIT, elicitParams, 'k', wellFormed));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('The input key "k" is asked twice in one request');
  });

  it('refuses an explicit key that an unkeyed ask took', async () => {
    const round = roundOf();
    pendingAsk(round, ELICIT, elicitParams);
    const error = await thrown(round.ask(ELICIT, elicitParams, 'elicitation-1', wellFormed));
    expect(error).toBeInstanceOf(TypeError);
  });
});

describe('InputRound: close', () => {
  it('rejects every pending ask with the reason', async () => {
    const { round, ends } = watched();
    const first = round.ask(ELICIT, elicitParams, undefined, wellFormed);
    const second = round.ask(SAMPLE, sampleParams, undefined, wellFormed);
    const reason = new McpCallAbortedError('input-required', 'the round ends to ask the client');
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
    round.close(() => reason);
    expect(await thrown(first)).toBe(reason);
    expect(await thrown(second)).toBe(reason);
  });

  it('before the turn ends, keeps the round from ending', async () => {
    const { round, ends } = watched();
    const asked = keptAsk(round, ELICIT, elicitParams);
    round.close(() => new Error('answered'));
    await nextTurn();
    expect(ends).not.toHaveBeenCalled();
    expect(((await thrown(asked)) as Error).message).toBe('answered');
  });

  it('takes no new asks afterwards, but still hands over answers the client gave', async () => {
    const answer = accepted({});
    const round = roundOf({ inputResponses: { given: answer } });
    round.close(() => new Error('done'));
    const error = await thrown(round.ask(ELICIT, elicitParams, undefined, wellFormed));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('elicitation/create cannot be asked: the request has its answer');
    await expect(round.ask(ELICIT, elicitParams, 'given', wellFormed)).resolves.toBe(answer);
  });

  it('makes no reason when nothing is pending: most rounds ask nothing, and an error is not free', () => {
    const round = roundOf();
    const reason = jest.fn(() => new Error('unused'));
    round.close(reason);
    expect(reason).not.toHaveBeenCalled();
  });

  it('works out the binding only when a state is sealed or opened', async () => {
    const binder = jest.fn(() => binding);
    const round = new InputRound(settings, binder, {}, NOW);
    await round.once('k', () => 1);
    expect(binder).not.toHaveBeenCalled();
    pendingAsk(round, ELICIT, elicitParams);
    const { requestState } = round.inputRequired(NOW);
    expect(binder).toHaveBeenCalledTimes(1);
    expect(carried(requestState).once).toStrictEqual({ k: 1 });
    new InputRound(settings, binder, { requestState }, NOW);
    expect(binder).toHaveBeenCalledTimes(2);
  });

  it('happens once: a second close changes nothing', async () => {
    const round = roundOf();
    const asked = keptAsk(round, ELICIT, elicitParams);
    const reason = new Error('first');
    round.close(() => reason);
    round.close(() => new Error('second'));
    expect(await thrown(asked)).toBe(reason);
  });
});

describe('InputRound: requestState across rounds', () => {
  it('carries the answers used, and the round count, in the sealed state', async () => {
    const round = roundOf({ inputResponses: { seat: accepted({ seat: '12A' }), unused: accepted({}) } });
    await round.ask(ELICIT, elicitParams, 'seat', wellFormed);
    pendingAsk(round, ELICIT, elicitParams, 'meal');
    expect(carried(round.inputRequired(NOW).requestState)).toStrictEqual({
      answers: { seat: accepted({ seat: '12A' }) },
      once: {},
      round: 1,
    });
  });

  it('answers the next round from the carried state and the new inputResponses', async () => {
    const first = roundOf({ inputResponses: { seat: accepted({ seat: '12A' }) } });
    await first.ask(ELICIT, elicitParams, 'seat', wellFormed);
    pendingAsk(first, ELICIT, elicitParams, 'meal');
    const { requestState } = first.inputRequired(NOW);

    const { round: second, ends } = watched({ requestState, inputResponses: { meal: accepted({ meal: 'veg' }) } });
    await expect(second.ask(ELICIT, elicitParams, 'seat', wellFormed)).resolves.toStrictEqual(
      accepted({ seat: '12A' }),
    );
    await expect(second.ask(ELICIT, elicitParams, 'meal', wellFormed)).resolves.toStrictEqual(
      accepted({ meal: 'veg' }),
    );
    expect(second.needsInput).toBe(false);
    await nextTurn();
    expect(ends).not.toHaveBeenCalled();

    pendingAsk(second, SAMPLE, sampleParams, 'summary');
    expect(carried(second.inputRequired(NOW).requestState)).toStrictEqual({
      answers: { seat: accepted({ seat: '12A' }), meal: accepted({ meal: 'veg' }) },
      once: {},
      round: 2,
    });
  });

  it('checks carried answers again when they are used', async () => {
    const first = roundOf({ inputResponses: { seat: accepted({ seat: '12A' }) } });
    await first.ask(ELICIT, elicitParams, 'seat', wellFormed);
    const second = roundOf({ requestState: first.inputRequired(NOW).requestState });
    const error = await thrown(second.ask(ELICIT, elicitParams, 'seat', () => 'no longer acceptable'));
    expect(error).toBeInstanceOf(InputProtocolError);
  });

  it('lets a new answer take the place of a carried one with the same key', async () => {
    const first = roundOf({ inputResponses: { seat: accepted({ seat: '12A' }) } });
    await first.ask(ELICIT, elicitParams, 'seat', wellFormed);
    const { requestState } = first.inputRequired(NOW);
    const second = roundOf({ requestState, inputResponses: { seat: accepted({ seat: '1C' }) } });
    await expect(second.ask(ELICIT, elicitParams, 'seat', wellFormed)).resolves.toStrictEqual(accepted({ seat: '1C' }));
  });

  it('does not carry answers the round did not use', async () => {
    const first = roundOf({ inputResponses: { seat: accepted({}) } });
    pendingAsk(first, ELICIT, elicitParams, 'meal');
    const second = roundOf({ requestState: first.inputRequired(NOW).requestState });
    pendingAsk(second, ELICIT, elicitParams, 'seat');
    expect(second.needsInput).toBe(true);
  });

  it('seals the state to expire after stateTtlMs', () => {
    const round = roundOf();
    pendingAsk(round, ELICIT, elicitParams);
    const { requestState } = round.inputRequired(NOW);
    expect(() => roundOf({ requestState }, NOW + 59_999)).not.toThrow();
    const error = thrownBy(() => roundOf({ requestState }, NOW + 60_000));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32602);
  });

  it('refuses a state of another request, and one that is not a state', () => {
    const round = roundOf();
    pendingAsk(round, ELICIT, elicitParams);
    const { requestState } = round.inputRequired(NOW);
    for (const other of [
      { ...binding, principal: 'bob' },
      { ...binding, item: 'tools/call\0cancel' },
      { ...binding, args: digestOf({ seats: 3 }) },
    ]) {
      const error = thrownBy(() => new InputRound(settings, other, { requestState }, NOW));
      expect(error).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).code).toBe(-32602);
    }
    expect((thrownBy(() => roundOf({ requestState: 'garbage' })) as JsonRpcError).code).toBe(-32602);
  });
});

describe('InputRound: once', () => {
  it('runs the work once however often it is asked for in a round', async () => {
    const round = roundOf();
    const work = jest.fn(async () => ({ reservation: 'R-1' }));
    const [a, b] = await Promise.all([round.once('book', work), round.once('book', work)]);
    expect(await round.once('book', work)).toStrictEqual({ reservation: 'R-1' });
    expect(work).toHaveBeenCalledTimes(1);
    expect(a).toStrictEqual({ reservation: 'R-1' });
    expect(b).toStrictEqual({ reservation: 'R-1' });
  });

  it('does not run the work synchronously', async () => {
    const round = roundOf();
    const work = jest.fn(() => 1);
    const value = round.once('k', work);
    expect(work).not.toHaveBeenCalled();
    await expect(value).resolves.toBe(1);
  });

  it('runs different keys separately', async () => {
    const round = roundOf();
    await expect(round.once('a', () => 1)).resolves.toBe(1);
    await expect(round.once('b', () => 2)).resolves.toBe(2);
  });

  it('carries the value to later rounds through the sealed state, where the work does not run again', async () => {
    const first = roundOf();
    await first.once('book', () => ({ reservation: 'R-1' }));
    pendingAsk(first, ELICIT, elicitParams);
    const { requestState } = first.inputRequired(NOW);
    expect(carried(requestState).once).toStrictEqual({ book: { reservation: 'R-1' } });

    const second = roundOf({ requestState });
    const work = jest.fn(() => ({ reservation: 'R-2' }));
    await expect(second.once('book', work)).resolves.toStrictEqual({ reservation: 'R-1' });
    expect(work).not.toHaveBeenCalled();

    pendingAsk(second, SAMPLE, sampleParams);
    const third = roundOf({ requestState: second.inputRequired(NOW).requestState });
    await expect(third.once('book', work)).resolves.toStrictEqual({ reservation: 'R-1' });
    expect(work).not.toHaveBeenCalled();
  });

  it('ends a round only once the work of a once running beside an ask settled, so its value is carried', async () => {
    const { round, ends } = watched();
    let finish!: (value: string) => void;
    const work = jest.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const kept = round.once('book', work);
    pendingAsk(round, ELICIT, elicitParams);
    await nextTurn();
    await nextTurn();
    expect(ends).not.toHaveBeenCalled();
    finish('R-7');
    await kept;
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
    expect(carried(round.inputRequired(NOW).requestState).once).toStrictEqual({ book: 'R-7' });
  });

  it('refuses a once that comes after the round ended, without running it: it would run again next round', async () => {
    const { round, ends } = watched();
    pendingAsk(round, ELICIT, elicitParams);
    await nextTurn();
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
    const work = jest.fn(() => 'charged');
    const error = await thrown(round.once('charge', work));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'ctx.once("charge") cannot run: the round ended (the request is asking the client, or answered)',
    );
    round.close(() => new Error('closed'));
    expect(await thrown(round.once('later', work))).toBeInstanceOf(TypeError);
    expect(work).not.toHaveBeenCalled();
  });

  it('still ends the round when a once beside an ask fails (nothing to carry)', async () => {
    const { round, ends } = watched();
    round.once('book', () => Promise.reject(new Error('down'))).catch(() => undefined);
    pendingAsk(round, ELICIT, elicitParams);
    await nextTurn();
    await nextTurn();
    expect(ends).toHaveBeenCalledTimes(1);
    expect(carried(round.inputRequired(NOW).requestState).once).toStrictEqual({});
  });

  it('hands over the JSON form of the value, as later rounds will see it', async () => {
    const round = roundOf();
    await expect(round.once('at', () => new Date(0))).resolves.toBe('1970-01-01T00:00:00.000Z');
    await expect(round.once('obj', () => ({ a: 1, gone: undefined }))).resolves.toStrictEqual({ a: 1 });
  });

  it('keeps falsy JSON values', async () => {
    const first = roundOf();
    await first.once('zero', () => 0);
    await first.once('none', () => null);
    await first.once('no', () => false);
    const second = roundOf({ requestState: first.inputRequired(NOW).requestState });
    const work = jest.fn(() => 'ran');
    await expect(second.once('zero', work)).resolves.toBe(0);
    await expect(second.once('none', work)).resolves.toBeNull();
    await expect(second.once('no', work)).resolves.toBe(false);
    expect(work).not.toHaveBeenCalled();
  });

  it.each([
    ['undefined', () => undefined],
    ['a function', () => () => 1],
  ])('refuses a value that is %s', async (_label, work) => {
    const error = await thrown(roundOf().once('k', work));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('ctx.once("k") must produce a JSON value');
  });

  it('refuses a value JSON cannot write', async () => {
    expect(await thrown(roundOf().once('k', () => 1n))).toBeInstanceOf(TypeError);
  });

  it('hands on the failure of the work', async () => {
    const failure = new Error('booking failed');
    expect(await thrown(roundOf().once('k', () => Promise.reject(failure)))).toBe(failure);
  });

  it('keeps values even when nothing is asked', () => {
    const round = roundOf();
    return round
      .once('k', () => 'v')
      .then(() => {
        expect(carried(round.inputRequired(NOW).requestState).once).toStrictEqual({ k: 'v' });
      });
  });
});
