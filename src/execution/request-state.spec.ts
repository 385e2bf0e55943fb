import { jest } from '@jest/globals';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import { digestOf } from '../sealing/digest.js';
import { Sealer } from '../sealing/sealer.js';
import {
  MAX_REQUEST_STATE_CHARS,
  openRequestState,
  sealRequestState,
  type CarriedState,
  type StateBinding,
} from './request-state.js';
import { thrownBy } from '../../test/utils/thrown.js';

const sealer = Sealer.fromSecret('request-state spec secret, 32B+!');
const NOW = 1_700_000_000_000;
const EXPIRES = NOW + 60_000;

const binding: StateBinding = {
  principal: 'alice',
  item: 'tools/call\0book_flight',
  args: digestOf({ from: 'CDG', to: 'SFO' }),
};

const state: CarriedState = {
  answers: { 'elicitation-1': { action: 'accept', content: { seat: '12A' } } },
  once: { reservation: 'R-42' },
  round: 1,
};

const REFUSAL = 'Invalid params: requestState is not valid for this request (altered, expired, or of another request)';

/** What opening threw: always the one -32602, whatever the cause. */
function refusalOf(action: () => unknown): void {
  const error = thrownBy(action);
  expect(error).toBeInstanceOf(JsonRpcError);
  const { code, message, data } = error as JsonRpcError;
  expect({ code, message, data }).toStrictEqual({ code: -32602, message: REFUSAL, data: undefined });
}

describe('MAX_REQUEST_STATE_CHARS', () => {
  it('is 512 Ki characters', () => {
    expect(MAX_REQUEST_STATE_CHARS).toBe(524_288);
  });
});

describe('sealRequestState and openRequestState', () => {
  it('round-trips the answers, the once values and the round', () => {
    const sealed = sealRequestState(sealer, binding, state, EXPIRES);
    expect(openRequestState(sealer, sealed, binding, NOW)).toStrictEqual(state);
  });

  it('round-trips the trace context of the round that sealed it, and leaves it out when there is none', () => {
    const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'a=1' };
    const sealed = sealRequestState(sealer, binding, { ...state, trace }, EXPIRES);
    expect(openRequestState(sealer, sealed, binding, NOW)).toStrictEqual({ ...state, trace });
    expect('trace' in openRequestState(sealer, sealRequestState(sealer, binding, state, EXPIRES), binding, NOW)).toBe(
      false,
    );
  });

  it('refuses a sealed payload whose trace context is not strings', () => {
    const payload = { v: 1, p: 'alice', i: binding.item, a: binding.args, x: EXPIRES, r: 1, ans: {}, once: {} };
    refusalOf(() =>
      openRequestState(sealer, sealer.seal('request-state', { ...payload, t: { traceparent: 1 } }), binding, NOW),
    );
    expect(
      openRequestState(sealer, sealer.seal('request-state', { ...payload, t: { traceparent: 'x' } }), binding, NOW)
        .trace,
    ).toStrictEqual({ traceparent: 'x' });
  });

  it('round-trips an empty state', () => {
    const empty: CarriedState = { answers: {}, once: {}, round: 0 };
    expect(openRequestState(sealer, sealRequestState(sealer, binding, empty, EXPIRES), binding, NOW)).toStrictEqual(
      empty,
    );
  });

  it('opens for an anonymous caller bound as the empty principal', () => {
    const anonymous = { ...binding, principal: '' };
    const sealed = sealRequestState(sealer, anonymous, state, EXPIRES);
    expect(openRequestState(sealer, sealed, anonymous, NOW)).toStrictEqual(state);
    refusalOf(() => openRequestState(sealer, sealed, binding, NOW));
  });

  it('opens with another sealer of the same secret (another instance of the deployment)', () => {
    const sealed = sealRequestState(sealer, binding, state, EXPIRES);
    const twin = Sealer.fromSecret('request-state spec secret, 32B+!');
    expect(openRequestState(twin, sealed, binding, NOW)).toStrictEqual(state);
  });

  it('is valid until just before its expiry', () => {
    const sealed = sealRequestState(sealer, binding, state, EXPIRES);
    expect(openRequestState(sealer, sealed, binding, EXPIRES - 1)).toStrictEqual(state);
    refusalOf(() => openRequestState(sealer, sealed, binding, EXPIRES));
    refusalOf(() => openRequestState(sealer, sealed, binding, EXPIRES + 60_000));
  });

  it('refuses the state of another principal', () => {
    const sealed = sealRequestState(sealer, binding, state, EXPIRES);
    refusalOf(() => openRequestState(sealer, sealed, { ...binding, principal: 'mallory' }, NOW));
    refusalOf(() => openRequestState(sealer, sealed, { ...binding, principal: '' }, NOW));
  });

  it('refuses the state of another item or method', () => {
    const sealed = sealRequestState(sealer, binding, state, EXPIRES);
    refusalOf(() => openRequestState(sealer, sealed, { ...binding, item: 'tools/call\0cancel_flight' }, NOW));
    refusalOf(() => openRequestState(sealer, sealed, { ...binding, item: 'prompts/get\0book_flight' }, NOW));
  });

  it('refuses the state of other arguments', () => {
    const sealed = sealRequestState(sealer, binding, state, EXPIRES);
    refusalOf(() => openRequestState(sealer, sealed, { ...binding, args: digestOf({ from: 'CDG', to: 'JFK' }) }, NOW));
  });

  it('refuses a state another secret sealed', () => {
    const other = Sealer.fromSecret('some other deployment secret 32B');
    const sealed = sealRequestState(other, binding, state, EXPIRES);
    refusalOf(() => openRequestState(sealer, sealed, binding, NOW));
  });

  it('refuses a state sealed for another purpose, even with the right shape', () => {
    const payload = { v: 1, p: 'alice', i: binding.item, a: binding.args, x: EXPIRES, r: 1, ans: {}, once: {} };
    expect(() => openRequestState(sealer, sealer.seal('request-state', payload), binding, NOW)).not.toThrow();
    refusalOf(() => openRequestState(sealer, sealer.seal('cursor', payload), binding, NOW));
  });

  it.each([
    ['another version', { v: 2 }],
    ['no version', { v: undefined }],
    ['a numeric principal', { p: 1 }],
    ['a string expiry', { x: String(EXPIRES) }],
    ['no round', { r: undefined }],
    ['answers that are an array', { ans: [] }],
    ['once values that are null', { once: null }],
  ])('refuses a payload with %s', (_label, change) => {
    const payload = {
      v: 1,
      p: 'alice',
      i: binding.item,
      a: binding.args,
      x: EXPIRES,
      r: 1,
      ans: {},
      once: {},
      ...change,
    };
    refusalOf(() => openRequestState(sealer, sealer.seal('request-state', payload), binding, NOW));
  });

  it('refuses a payload that is not an object', () => {
    for (const value of [null, 'state', [1], 1]) {
      refusalOf(() => openRequestState(sealer, sealer.seal('request-state', value), binding, NOW));
    }
  });

  it('refuses an altered state', () => {
    const bytes = Buffer.from(sealRequestState(sealer, binding, state, EXPIRES), 'base64url');
    bytes[bytes.length >> 1] ^= 1;
    refusalOf(() => openRequestState(sealer, bytes.toString('base64url'), binding, NOW));
  });

  it('refuses text that is not a state', () => {
    for (const text of ['', 'abc', '!!!', 'eyJ2IjoxfQ']) refusalOf(() => openRequestState(sealer, text, binding, NOW));
  });

  it('does not even try to open a state beyond the size limit', () => {
    const open = jest.spyOn(sealer, 'open');
    try {
      refusalOf(() => openRequestState(sealer, 'A'.repeat(MAX_REQUEST_STATE_CHARS + 1), binding, NOW));
      expect(open).not.toHaveBeenCalled();
      refusalOf(() => openRequestState(sealer, 'A'.repeat(MAX_REQUEST_STATE_CHARS), binding, NOW));
      expect(open).toHaveBeenCalledTimes(1);
    } finally {
      open.mockRestore();
    }
  });

  it('refuses to seal a state beyond the size limit, as the server bug it is (a RangeError, not a client error)', () => {
    const big: CarriedState = { answers: { huge: 'x'.repeat(MAX_REQUEST_STATE_CHARS) }, once: {}, round: 1 };
    const error = thrownBy(() => sealRequestState(sealer, binding, big, EXPIRES));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe(
      'the answers and ctx.once values carried between rounds exceed 524288 characters sealed',
    );
  });

  it('seals a large state within the limit', () => {
    const large: CarriedState = { answers: {}, once: { blob: 'y'.repeat(300_000) }, round: 3 };
    const sealed = sealRequestState(sealer, binding, large, EXPIRES);
    expect(sealed.length).toBeLessThanOrEqual(MAX_REQUEST_STATE_CHARS);
    expect(openRequestState(sealer, sealed, binding, NOW)).toStrictEqual(large);
  });

  it('does not keep a reference to the state it sealed', () => {
    const answers: Record<string, unknown> = { a: 1 };
    const sealed = sealRequestState(sealer, binding, { answers, once: {}, round: 1 }, EXPIRES);
    answers.b = 2;
    expect(openRequestState(sealer, sealed, binding, NOW).answers).toStrictEqual({ a: 1 });
  });
});
