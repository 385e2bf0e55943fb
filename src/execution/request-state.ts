import { invalidParams } from '../protocol/json-rpc.errors.js';
import { isPlainObject } from '../protocol/json-rpc.codec.js';
import type { Sealer } from '../sealing/sealer.js';

/** The purpose `requestState` is sealed under: nothing else the server seals opens as one. */
const PURPOSE = 'request-state';
/** The largest `requestState` the server hands out, in characters: a bound on what it echoes back. */
export const MAX_REQUEST_STATE_CHARS = 512 * 1024;

/** What a request is, for the state its rounds carry: none of it may change between rounds. */
export interface StateBinding {
  /** Who asks (`auth.principalOf` of the request; empty when anonymous). */
  readonly principal: string;
  /** The method and the item: `tools/call` of `forecast`, `resources/read` of a URI... */
  readonly item: string;
  /** A digest of the arguments. */
  readonly args: string;
}

/** What one round hands the next: the answers it used, and the values `ctx.once` kept. */
export interface CarriedState {
  readonly answers: Readonly<Record<string, unknown>>;
  readonly once: Readonly<Record<string, unknown>>;
  /** How many rounds came before. */
  readonly round: number;
  /** The trace context of the round that sealed it (`traceparent`, ...): the next round's span links to it. */
  readonly trace?: Readonly<Record<string, string>>;
}

interface Payload {
  readonly v: 1;
  readonly p: string;
  readonly i: string;
  readonly a: string;
  /** Expiry, ms since epoch. */
  readonly x: number;
  readonly r: number;
  readonly ans: Record<string, unknown>;
  readonly once: Record<string, unknown>;
  readonly t?: Record<string, string>;
}

/**
 * Seals the state an `input_required` round hands to the client, bound to the request (principal,
 * method and item, arguments) and to an expiry.
 * @throws RangeError when the state would exceed {@link MAX_REQUEST_STATE_CHARS}: the handler's
 *   `once` values (or the answers it keeps asking for) grew too large, a server bug to log.
 */
export function sealRequestState(
  sealer: Sealer,
  binding: StateBinding,
  state: CarriedState,
  expiresAt: number,
): string {
  const payload: Payload = {
    v: 1,
    p: binding.principal,
    i: binding.item,
    a: binding.args,
    x: expiresAt,
    r: state.round,
    ans: { ...state.answers },
    once: { ...state.once },
    ...(state.trace === undefined ? {} : { t: { ...state.trace } }),
  };
  const sealed = sealer.seal(PURPOSE, payload);
  if (sealed.length > MAX_REQUEST_STATE_CHARS) {
    throw new RangeError(
      `the answers and ctx.once values carried between rounds exceed ${MAX_REQUEST_STATE_CHARS} characters sealed`,
    );
  }
  return sealed;
}

/**
 * Opens the `requestState` a client echoed: it must be one this deployment sealed, for this very
 * request (same principal, method and item, arguments), and not expired. It is attacker-controlled
 * input, so every failure is answered alike, without saying which check failed.
 * @throws JsonRpcError -32602
 */
export function openRequestState(sealer: Sealer, sealed: string, binding: StateBinding, now: number): CarriedState {
  const payload = sealed.length <= MAX_REQUEST_STATE_CHARS ? sealer.open(PURPOSE, sealed) : undefined;
  if (
    !isPayload(payload) ||
    payload.p !== binding.principal ||
    payload.i !== binding.item ||
    payload.a !== binding.args ||
    payload.x <= now
  ) {
    throw invalidParams('requestState is not valid for this request (altered, expired, or of another request)');
  }
  return {
    answers: payload.ans,
    once: payload.once,
    round: payload.r,
    ...(payload.t === undefined ? {} : { trace: payload.t }),
  };
}

function isPayload(value: unknown): value is Payload {
  return (
    isPlainObject(value) &&
    value.v === 1 &&
    typeof value.p === 'string' &&
    typeof value.i === 'string' &&
    typeof value.a === 'string' &&
    typeof value.x === 'number' &&
    typeof value.r === 'number' &&
    isPlainObject(value.ans) &&
    isPlainObject(value.once) &&
    (value.t === undefined || (isPlainObject(value.t) && Object.values(value.t).every((v) => typeof v === 'string')))
  );
}
