import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { ServerTelemetry } from '../interfaces/mcp-telemetry.interface.js';
import type { JsonRpcParams } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import { INTERIM_RESULT, type InputRequest, type InputRequiredResult } from '../protocol/mcp.types.js';
import type { Sealer } from '../sealing/sealer.js';
import { InputProtocolError } from './input-protocol.error.js';
import { openRequestState, sealRequestState, type StateBinding } from './request-state.js';

/** What the MRTR fields of a request brought: the client's answers, and the state of the previous round. */
export interface RoundInputs {
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  readonly requestState?: string;
}

/**
 * What every round shares: the sealer of the deployment, how long a round's state stays valid, and
 * the server's telemetry when it has some (the rounds of one request are linked in the trace).
 */
export interface InputRoundSettings {
  readonly sealer: Sealer;
  readonly stateTtlMs: number;
  readonly telemetry?: Pick<ServerTelemetry, 'traceMeta' | 'linkPreviousRound'>;
}

/** The default key of a request to the client: its kind and its place among the handler's unkeyed asks. */
const KEY_PREFIX: Readonly<Record<string, string>> = {
  [Method.ElicitationCreate]: 'elicitation',
  [Method.SamplingCreateMessage]: 'sampling',
  [Method.RootsList]: 'roots',
};

/**
 * One round of a multi round-trip request (2026-07-28 MRTR) of a `tools/call`, `prompts/get` or
 * `resources/read`. The handler runs again from the start on every round; what it asked before is
 * answered from the client's `inputResponses` (or, for answers of earlier rounds, from the sealed
 * `requestState`). A question without an answer yet is recorded, and once the handler has asked
 * all it asks at this point (at the end of the current turn of the event loop), the round ends:
 * {@link onNeedsInput} is told, the pending asks reject with the call's abort reason, and the
 * request is answered with {@link inputRequired}.
 */
export class InputRound {
  /** Told once, when the round must end to ask the client. */
  onNeedsInput: () => void = () => undefined;
  private readonly answers: Readonly<Record<string, unknown>>;
  /** Answers the handler used this round: they go on in the next round's state. */
  private readonly used = new Map<string, unknown>();
  private readonly requested = new Map<string, InputRequest>();
  private readonly kept: Record<string, unknown>;
  private readonly running = new Map<string, Promise<unknown>>();
  /** `once` work not settled yet: the round waits for it, so that its value is carried, not run again. */
  private readonly unsettled = new Set<Promise<unknown>>();
  private readonly waiters: ((reason: unknown) => void)[] = [];
  private readonly round: number;
  /** The binding of the request, worked out on first need: most rounds never seal nor open a state. */
  private bound: StateBinding | undefined;
  private ordinal = 0;
  private scheduled = false;
  /** Whether the round ended to ask the client: nothing run now could be carried to the next. */
  private ended = false;
  private closed = false;

  /**
   * Opens the round of a request: its `requestState`, if it echoed one, must be one this deployment
   * sealed for this same request.
   * @param binding what the request is (principal, item, arguments), or how to work it out when
   *   needed: its digest of the arguments costs, and a round that neither opens nor seals a state
   *   never needs it.
   * @throws JsonRpcError -32602 for a state that is altered, expired or another request's.
   */
  constructor(
    private readonly settings: InputRoundSettings,
    private readonly binding: StateBinding | (() => StateBinding),
    inputs: RoundInputs,
    now = Date.now(),
  ) {
    const carried =
      inputs.requestState === undefined
        ? { answers: {}, once: {}, round: 0 }
        : openRequestState(settings.sealer, inputs.requestState, this.boundTo(), now);
    // This round's answers take the place of carried ones with the same key.
    this.answers = { ...carried.answers, ...inputs.inputResponses };
    this.kept = { ...carried.once };
    this.round = carried.round;
    if (carried.trace !== undefined) settings.telemetry?.linkPreviousRound(carried.trace);
  }

  /** Every answer the request carries (its `inputResponses` and those of earlier rounds), by key. */
  get carriedAnswers(): Readonly<Record<string, unknown>> {
    return this.answers;
  }

  /** Whether the handler asked something the client has not answered yet. */
  get needsInput(): boolean {
    return this.requested.size > 0;
  }

  /**
   * The client's answer to a request, when it gave one; else the request is recorded for this
   * round's `input_required`, and the promise rejects when the round ends.
   * @param key the request's key in `inputRequests`; by default its kind and order (`elicitation-1`).
   * @param problemOf what is wrong with an answer, if anything (checked before it is returned).
   * @throws InputProtocolError -32602 for a malformed answer; TypeError for a key asked twice.
   */
  ask(
    method: string,
    params: JsonRpcParams,
    key: string | undefined,
    problemOf: (answer: unknown) => string | undefined,
  ): Promise<unknown> {
    const id = key ?? `${KEY_PREFIX[method] ?? 'input'}-${++this.ordinal}`;
    if (this.used.has(id) || this.requested.has(id)) {
      return Promise.reject(new TypeError(`The input key "${id}" is asked twice in one request`));
    }
    if (Object.hasOwn(this.answers, id)) {
      const answer = this.answers[id];
      const problem = problemOf(answer);
      if (problem !== undefined) {
        return Promise.reject(
          new InputProtocolError(
            `The answer to input "${id}" (${method}) is malformed: ${problem}`,
            ErrorCode.InvalidParams,
            {
              inputResponse: id,
            },
          ),
        );
      }
      this.used.set(id, answer);
      return Promise.resolve(answer);
    }
    if (this.closed) return Promise.reject(new TypeError(`${method} cannot be asked: the request has its answer`));
    this.requested.set(id, { method, params });
    this.scheduleEnd();
    return new Promise<unknown>((_resolve, reject) => this.waiters.push(reject));
  }

  /**
   * A value computed once per request however many rounds it takes: the first round runs `work`,
   * later ones get its value from the sealed state. Values must be JSON.
   */
  once<T>(key: string, work: () => T | Promise<T>): Promise<T> {
    if (Object.hasOwn(this.kept, key)) return Promise.resolve(this.kept[key] as T);
    let running = this.running.get(key);
    if (!running && (this.ended || this.closed)) {
      // Its value could not reach the next round's state: running it now would run it again then.
      return Promise.reject(
        new TypeError(`ctx.once("${key}") cannot run: the round ended (the request is asking the client, or answered)`),
      );
    }
    if (!running) {
      running = Promise.resolve()
        .then(work)
        .then((value) => {
          this.kept[key] = jsonCopy(key, value);
          return this.kept[key];
        });
      this.running.set(key, running);
      const settled = running.then(
        () => undefined,
        () => undefined,
      );
      this.unsettled.add(settled);
      void settled.then(() => this.unsettled.delete(settled));
    }
    return running as Promise<T>;
  }

  /** The interim result of this round: what to ask, and the state the client echoes when it retries. */
  inputRequired(now = Date.now()): InputRequiredResult {
    const requestState = sealRequestState(
      this.settings.sealer,
      this.boundTo(),
      { answers: Object.fromEntries(this.used), once: this.kept, round: this.round + 1, ...this.traceOfRound() },
      now + this.settings.stateTtlMs,
    );
    const result: InputRequiredResult = {
      resultType: 'input_required',
      inputRequests: Object.fromEntries(this.requested),
      requestState,
    };
    // Not enumerable: the brand never reaches the wire, and copies of the result drop it.
    return Object.defineProperty(result, INTERIM_RESULT, { value: true });
  }

  /**
   * The request has its answer (or its round ended): pending asks fail with `reason`, none are taken
   * any more.
   * @param reason made only when some ask is pending: an error's stack is not free, and most rounds ask nothing.
   */
  close(reason: () => unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (this.waiters.length === 0) return;
    const why = reason();
    for (const reject of this.waiters.splice(0)) reject(why);
  }

  /** The trace context of this round's operation, for the next round to link to. */
  private traceOfRound(): { trace?: Record<string, string> } {
    const trace = this.settings.telemetry?.traceMeta();
    return trace === undefined ? {} : { trace };
  }

  private boundTo(): StateBinding {
    this.bound ??= typeof this.binding === 'function' ? this.binding() : this.binding;
    return this.bound;
  }

  /**
   * Asks made in the same turn (`Promise.all` of several) end up in one round. A `once` still running
   * then (`Promise.all([ctx.once(...), ctx.elicit(...)])`) is waited for: its value goes in the state,
   * so its work does not run again next round.
   */
  private scheduleEnd(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.endWhenSettled());
  }

  private async endWhenSettled(): Promise<void> {
    while (this.unsettled.size > 0 && !this.closed) await Promise.all(this.unsettled);
    if (this.closed) return;
    this.ended = true;
    this.onNeedsInput();
  }
}

/** A JSON copy of a `once` value, which the sealed state carries as JSON. */
function jsonCopy(key: string, value: unknown): unknown {
  const text = value === undefined ? undefined : JSON.stringify(value);
  if (text === undefined) throw new TypeError(`ctx.once("${key}") must produce a JSON value`);
  return JSON.parse(text) as unknown;
}
