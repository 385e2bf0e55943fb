import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import type { CallAbortHandle } from '../interfaces/caller.interface.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { ErrorCode, internalError, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { InputRequiredResult, Meta } from '../protocol/mcp.types.js';
import type { ArgumentsChecker } from '../schemas/arguments-checker.js';
import type { JsonSchemaValidatorFactory } from '../schemas/json-schema.validator.js';
import type { CallAnswers, CallStand } from './call-answers.js';
import { GUARD_DEADLINE_MS, type GuardClock } from './guard-clock.js';
import { McpContextImpl, type McpContextSettings } from './mcp-context.impl.js';
import { InputProtocolError } from './input-protocol.error.js';
import type { RoundInputs } from './input-round.js';
import type { InputRoundSlot } from './input-round-slot.js';
import type { ItemVisibility } from './item-visibility.js';
import type { MessageContext } from './message-context.js';
import { ScopeChallengeError } from './scope-challenge.js';
import { buildInvocation, executionArgs, type InvocationScopes, type Invocation } from './invocation.js';
import type { PipelineTarget } from './pipeline-target.js';
import { describeItem, type ItemRequest } from './item-request.js';
import type { ServedHandler } from './served-handler.js';

/** One way a request may be served: the first candidate whose guards admit the caller serves it. */
export interface CallCandidate<R> {
  readonly handler: ServedHandler;
  readonly item: ItemRequest;
  /** The arguments as sent: what guards see (a tool's arguments, a template's variables...). */
  readonly raw: object;
  /** How `raw` is checked for the rest of the pipeline; without it `raw` goes on as it is. */
  readonly arguments?: CandidateArguments<R>;
  /** The answer made of what the handler returned (return it, or throw a JSON-RPC error). */
  readonly map: (value: unknown) => R;
  /**
   * Checks the request further once the guards admitted the caller, before its arguments: a
   * {@link JsonRpcError} it throws is the answer (a tool's `Mcp-Param-*` headers).
   */
  readonly admitted?: () => void;
  /**
   * The caller's guards admitted it already, for this very call: the work of a task, admitted in
   * the request that made the task. Guards run once per call, not again in the task.
   */
  readonly guardsPassed?: boolean;
}

/** How a candidate's arguments are checked, and what refused ones are answered with. */
export interface CandidateArguments<R> {
  /** Checks and transforms the arguments as sent. */
  readonly check: ArgumentsChecker;
  /** The answer to arguments `check` refuses: `problems` is undefined when they could not be read at all. */
  readonly invalid: (problems: readonly string[] | undefined) => R;
}

/** Arguments checked: their value, or the problems (undefined when they could not be read at all). */
type Checked = { ok: true; value: object } | { ok: false; problems: readonly string[] | undefined };

/** A candidate that may not serve: its guards deny the caller, or it cannot be prepared for it. */
const DENIED = Symbol('denied');

/** What every running call shares: settings of the application, read once. */
export interface RunningCallSettings {
  readonly scopes: InvocationScopes;
  readonly clientRequestTimeoutMs: number;
  readonly validators: JsonSchemaValidatorFactory;
  readonly visibility: ItemVisibility;
  readonly clock: GuardClock;
}

/** What the request is, as its kind knows it on arrival. */
export interface RequestItem extends ItemRequest {
  readonly meta?: Meta;
  /**
   * For a request that may ask the client for input (`tools/call`, `prompts/get`, `resources/read`):
   * its method, its arguments, and the MRTR fields a stateless client's retry carries.
   */
  readonly input?: RoundInputs & { readonly method: string; readonly arguments?: unknown };
}

/** A failure of the pipeline or of mapping its value, with whether Nest logged it already. */
class HandlerFailure {
  constructor(
    readonly error: unknown,
    readonly reported: boolean,
  ) {}
}

/**
 * One request of an item in flight, as its kind's work sees it (see `CallLifecycle.run`): the
 * handler context, the way to serve it through admission, arguments and the handler, and the
 * state the lifecycle answers from when it fails or stops.
 */
export class RunningCall<R> {
  readonly context: McpContextImpl;
  private admittedItem: ItemRequest | undefined;
  private admittedHandler: ServedHandler | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: RunningCallSettings,
    private readonly answers: CallAnswers<R>,
    private readonly call: MessageContext,
    private readonly requestId: RequestId,
    private readonly request: RequestItem,
    private readonly controller: CallAbortHandle,
    contextSettings: McpContextSettings,
    private readonly round?: InputRoundSlot,
  ) {
    this.context = new McpContextImpl(call, requestId, request.name, request.meta, controller, contextSettings, round);
  }

  /** The call's signal (made on first read: see `CallAbortHandle`). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the call aborted, without making its signal. */
  get aborted(): boolean {
    return this.controller.aborted;
  }

  /**
   * Serves the request with the first candidate whose guards admit the caller:
   * admission (guards, bounded by the guard deadline and the item's `timeoutMs`), then the item's
   * timeout starts, arguments (`check`), the handler behind its pipeline, and its value mapped.
   * An item the caller may not see neither answers nor stands in the way of one it may (nor does
   * one it lacks scopes for: its challenge answers only when no other candidate serves).
   * @param denied the answer when none admits the caller (or none could be prepared for it).
   */
  async serve(candidates: Iterable<CallCandidate<R>>, denied: () => R): Promise<R> {
    // A candidate the caller lacks scopes for is challenged only when no other one may serve.
    let challenge: ScopeChallengeError | undefined;
    for (const candidate of candidates) {
      let served: R | typeof DENIED;
      try {
        served = await this.attempt(candidate);
      } catch (error) {
        if (!(error instanceof ScopeChallengeError)) throw error;
        challenge ??= error;
        continue;
      }
      if (served !== DENIED) return served;
    }
    if (challenge) throw challenge;
    return denied();
  }

  /** {@link serve} with the one item a request names (a tool, a prompt, a completer). */
  serveOne(candidate: CallCandidate<R>, denied: () => R): Promise<R> {
    return this.attempt(candidate, denied) as Promise<R>;
  }

  /** One candidate through admission, arguments, handler and mapping; `denied` (or DENIED) if it may not serve. */
  private async attempt(candidate: CallCandidate<R>, denied?: () => R): Promise<R | typeof DENIED> {
    const target = this.prepare(candidate);
    const ready = target instanceof Promise ? await target : target;
    if (!ready) return denied ? denied() : DENIED;
    const { item } = candidate;
    // Guards see the context of the item they guard (a resource read learns its item here).
    this.context.rename(item.name);
    // Guards see the arguments as sent, before validation.
    const invocation = this.invocation(item, candidate.raw);
    if (ready.guarded && candidate.guardsPassed !== true && !(await this.admits(ready, invocation, candidate))) {
      this.answers.logger.debug(`${describeItem(item)} denied by its guards`);
      return denied ? denied() : DENIED;
    }
    this.stopIfAborted();
    this.admit(candidate);
    candidate.admitted?.();
    let args = candidate.raw;
    if (candidate.arguments) {
      const checking = this.check(candidate, candidate.arguments);
      // Most checks answer at once (a DTO without async constraints, a schema): no turn of the event loop for them.
      const checked = checking instanceof Promise ? await checking : checking;
      if (!checked.ok) return candidate.arguments.invalid(checked.problems);
      args = checked.value;
    }
    this.stopIfAborted();
    let value: unknown;
    try {
      value = await ready.execute(executionArgs({ ...invocation, arguments: args }));
    } catch (error) {
      throw new HandlerFailure(error, ready.reportsErrors);
    }
    try {
      return candidate.map(value);
    } catch (error) {
      throw new HandlerFailure(error, false);
    }
  }

  /**
   * Whether the caller may see an item, its guards asked as for a listing: for requests about an
   * item rather than served by it (a subscription, a completion of a prompt's argument).
   */
  admitsToSee(handler: ServedHandler, item: ItemRequest): Promise<boolean> {
    return this.settings.visibility.isVisible(handler, item, this.call);
  }

  /**
   * The answer when the signal aborted; throws for a request the client cancelled (never answered).
   * A round that ended to ask the client is answered with what it asks.
   */
  abortedAnswer(): R | InputRequiredResult {
    const reason: unknown = this.controller.reason;
    const round = this.round?.opened;
    if (round && reason instanceof McpCallAbortedError && reason.kind === 'input-required') {
      try {
        return round.inputRequired();
      } catch (error) {
        // The client's own error (arguments too deeply nested to bind the state to): answered as such.
        if (error instanceof JsonRpcError) throw error;
        this.answers.logger.error(
          `${describeItem(this.stand().item)} could not carry its state to the next round; answered with an internal error`,
          error instanceof Error ? error.message : String(error),
        );
        throw internalError();
      }
    }
    const stand = this.stand();
    this.answers.logger.debug(`${describeItem(stand.item)} stopped: ${String(reason)}`);
    if (reason instanceof McpCallAbortedError && reason.kind === 'cancelled') {
      throw new RequestCancelledError(this.requestId);
    }
    return this.answers.aborted(reason, stand);
  }

  /**
   * The answer to a failure of the kind's work, the handler, its pipeline or its mapping. What the
   * protocol answers itself is answered so by every kind: a JSON-RPC error of the lifecycle's own
   * checks, and a stateless client's missing capability or malformed input, even out of a handler.
   */
  failureAnswer(failure: unknown): R {
    if (failure instanceof JsonRpcError) throw failure;
    const error = failure instanceof HandlerFailure ? failure.error : failure;
    if (error instanceof InputProtocolError) throw new JsonRpcError(error.code, error.message, error.data);
    if (failure instanceof HandlerFailure) return this.answers.failed(failure.error, this.stand(), failure.reported);
    return this.answers.failed(failure, this.stand(), false);
  }

  /** A failure after the request was answered: worth a line, since nobody else hears of it. */
  reportLate(failure: unknown): void {
    const error = failure instanceof HandlerFailure ? failure.error : failure;
    // The work stopping on the abort itself, and failures meant for the model, are no news.
    if (error === this.controller.reason || error instanceof McpToolError) return;
    this.answers.logger.debug(
      `${describeItem(this.stand().item)} failed after its request was aborted: ${String(error)}`,
    );
  }

  /** The request has its answer: nothing more goes out for it, and no timer outlives it. */
  finish(): void {
    this.context.finish();
    this.round?.close(() =>
      this.controller.aborted
        ? this.controller.reason
        : new McpClientRequestError('Withdrawn: the request that asked has its answer', ErrorCode.InvalidRequest),
    );
    if (this.timer) clearTimeout(this.timer);
  }

  private stand(): CallStand {
    return this.admittedHandler
      ? { item: this.admittedItem!, handler: this.admittedHandler }
      : { item: this.admittedItem ?? this.request };
  }

  private invocation(item: ItemRequest, raw: object): Invocation {
    return buildInvocation('call', item, this.call, raw, this.context, this.settings.scopes);
  }

  /**
   * The candidate's pipeline for this caller, or nothing when its request-scoped provider cannot be
   * built for it. Static providers answer at once: no turn of the event loop for them.
   */
  private prepare({
    handler,
    item,
  }: CallCandidate<R>): PipelineTarget | undefined | Promise<PipelineTarget | undefined> {
    try {
      const target = handler.target(this.call.httpRequest);
      return target instanceof Promise
        ? target.catch((error: unknown) => this.unprepared(handler, item, error))
        : target;
    } catch (error) {
      return this.unprepared(handler, item, error);
    }
  }

  /** As in listings: a request-scoped provider that cannot be built for this caller hides its item. */
  private unprepared(handler: ServedHandler, item: ItemRequest, error: unknown): undefined {
    this.answers.logger.error(
      `${describeItem(item)} (${handler.owner}) could not be prepared; answered as if it did not exist`,
      error instanceof Error ? error.stack : String(error),
    );
    return undefined;
  }

  /**
   * Whether the guards admit the caller within the guard deadline, or the item's own `timeoutMs` if
   * shorter: guards that take longer deny, so the timeout of an item the caller may not see is
   * answered as for an item that does not exist.
   */
  private admits(target: PipelineTarget, invocation: Invocation, candidate: CallCandidate<R>): Promise<boolean> {
    const { timeoutMs } = candidate.handler;
    return this.settings.clock.within(
      target.canActivate(executionArgs(invocation)),
      timeoutMs === undefined ? GUARD_DEADLINE_MS : Math.min(GUARD_DEADLINE_MS, timeoutMs),
      () => {
        const line = `The guards of ${describeItem(candidate.item)} did not answer in time`;
        // Of a request answered already (cancelled, session ended), it is a detail, not an error.
        if (this.controller.aborted) this.answers.logger.debug(line);
        else this.answers.logger.error(line);
      },
    );
  }

  /**
   * The caller may use the item: from now on its `timeoutMs` runs, and failures name it. Called
   * only while the signal has not aborted: work left running after its request was answered
   * (cancelled, session ended) starts no timer.
   */
  private admit({ item, handler }: CallCandidate<R>): void {
    this.admittedItem = item;
    this.admittedHandler = handler;
    const { timeoutMs } = handler;
    if (timeoutMs === undefined || this.timer) return;
    this.timer = setTimeout(() => {
      this.controller.abort(
        new McpCallAbortedError('timeout', `${describeItem(item)} timed out after ${timeoutMs} ms`),
      );
    }, timeoutMs);
    this.timer.unref();
  }

  /** The candidate's arguments checked; a check that throws means they could not be read at all. */
  private check(candidate: CallCandidate<R>, { check }: CandidateArguments<R>): Checked | Promise<Checked> {
    try {
      const checked = check(candidate.raw as Record<string, unknown>);
      return checked instanceof Promise
        ? checked.catch((error: unknown) => this.unreadable(candidate, error))
        : checked;
    } catch (error) {
      return this.unreadable(candidate, error);
    }
  }

  private unreadable(candidate: CallCandidate<R>, error: unknown): Checked {
    // class-transformer recurses: absurdly nested arguments overflow its stack. The client's fault, not ours.
    this.answers.logger.debug(`Arguments of ${describeItem(candidate.item)} could not be validated: ${String(error)}`);
    return { ok: false, problems: undefined };
  }

  /**
   * Ends work whose request was answered already (cancelled, timed out, session ended): it must not
   * go on, nor be mapped and logged as a failure. The rejection goes to {@link reportLate}.
   */
  private stopIfAborted(): void {
    if (this.controller.aborted) throw this.controller.reason;
  }
}
