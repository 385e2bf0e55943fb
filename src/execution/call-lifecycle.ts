import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import type { ServerTelemetry } from '../interfaces/mcp-telemetry.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { invalidRequest } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { InputRequiredResult } from '../protocol/mcp.types.js';
import { digestOf } from '../sealing/digest.js';
import { Sealer } from '../sealing/sealer.js';
import { Schemas } from '../schemas/schemas.js';
import type { CallAnswers } from './call-answers.js';
import type { McpContextSettings } from './mcp-context.impl.js';
import { GuardClock } from './guard-clock.js';
import { ItemVisibility } from './item-visibility.js';
import { InputRound, type InputRoundSettings } from './input-round.js';
import { InputRoundSlot } from './input-round-slot.js';
import type { StateBinding } from './request-state.js';
import type { MessageContext } from './message-context.js';
import { RunningCall, type RequestItem, type RunningCallSettings } from './running-call.js';
import { ABORTED, untilAborted } from './until-aborted.js';

/**
 * The one lifecycle of every request served by an item: `tools/call`, `resources/read` (and
 * `resources/subscribe`), `prompts/get` and `completion/complete`.
 *
 * 1. The request becomes a running call of its session, under its request id: a second request
 *    with the id of a running one is refused, `notifications/cancelled` and the end of the session
 *    abort it, and its handler gets an `McpContext` (progress, logs, requests to the client).
 * 2. The kind's work finds what serves the request and serves it with {@link RunningCall.serve}:
 *    admission (the guards, bounded), the item's `timeoutMs` started, arguments checked, the
 *    handler run behind its Nest pipeline, its value mapped.
 * 3. All of it races the call's signal: a handler that ignores the signal does not hold the answer
 *    back, and a cancelled request is never answered.
 * 4. What fails or stops is answered by the kind's {@link CallAnswers}: `isError` results for tools,
 *    JSON-RPC errors for the others.
 *
 * A stateless (2026-07-28) `tools/call`, `prompts/get` or `resources/read` runs as one round of a
 * multi round-trip request: its `requestState` is opened first (a forged one goes no further), and
 * a handler that asks the client for input ends the round with `input_required` (see {@link InputRound}).
 */
@Injectable()
export class CallLifecycle {
  private readonly settings: RunningCallSettings;
  /** What the handler contexts of each kind share (its logger among them), made once per kind. */
  private readonly contextSettings = new WeakMap<CallAnswers<unknown>, McpContextSettings>();
  private readonly rounds: InputRoundSettings;
  private readonly telemetry: ServerTelemetry;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    schemas: Schemas,
    visibility: ItemVisibility,
    clock: GuardClock,
    sealer: Sealer,
  ) {
    this.telemetry = options.telemetry;
    this.rounds = {
      sealer,
      stateTtlMs: options.state.requestStateTtlMs,
      ...(this.telemetry.enabled ? { telemetry: this.telemetry } : {}),
    };
    this.settings = {
      scopes: { scopesOf: options.auth.scopesOf, scopeDenial: options.auth.scopeDenial },
      clientRequestTimeoutMs: options.sessions.clientRequestTimeoutMs,
      validators: schemas.validators,
      visibility,
      clock,
    };
  }

  /**
   * Runs one request from arrival to answer (see the class description).
   * @param request what the request names on arrival (a resource read names its URI until a resource admits it).
   * @param work finds the item and serves it; what it returns is the answer.
   * @throws RequestCancelledError when the client cancelled it (no answer at all); the JSON-RPC
   *   errors `answers` throws; -32600 for a request id already running.
   */
  run<R>(
    answers: CallAnswers<R>,
    call: MessageContext,
    requestId: RequestId,
    request: RequestItem & { readonly input: NonNullable<RequestItem['input']> },
    work: (running: RunningCall<R>) => Promise<R>,
  ): Promise<R | InputRequiredResult>;
  run<R>(
    answers: CallAnswers<R>,
    call: MessageContext,
    requestId: RequestId,
    request: RequestItem & { readonly input?: undefined },
    work: (running: RunningCall<R>) => Promise<R>,
  ): Promise<R>;
  run<R>(
    answers: CallAnswers<R>,
    call: MessageContext,
    requestId: RequestId,
    request: RequestItem,
    work: (running: RunningCall<R>) => Promise<R>,
  ): Promise<R | InputRequiredResult> {
    // Not an async function: every call goes through here, and a reaction to the race is one promise
    // where an awaiting function makes two. What throws before the race is a rejection all the same.
    let running: RunningCall<R>;
    let controller: ReturnType<MessageContext['caller']['beginCall']>;
    try {
      const { caller } = call;
      // Checked before the item is even looked up, and before anything awaits: a second request with
      // the same id (say, in one batch) is refused alike for hidden and unknown items, and a
      // cancellation that arrives while guards or validation run finds the call.
      if (caller.isRunning(requestId)) {
        throw invalidRequest(`request id ${JSON.stringify(requestId)} is already in use by a running request`);
      }
      const round = this.roundOf(call, request);
      controller = caller.beginCall(requestId);
      // A field, not a closure over `controller`: see InputRoundSlot.
      if (round) round.call = controller;
      running = new RunningCall(
        this.settings,
        answers,
        call,
        requestId,
        request,
        controller,
        this.contextSettingsOf(answers),
        round,
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return untilAborted(
      () => work(running),
      controller,
      (late) => running.reportLate(late),
    ).then(
      (outcome) => {
        running.finish();
        call.caller.endCall(requestId, controller);
        // The race reports an abort first, whatever the work does after it: a handler that stops (or
        // fails) because its signal aborted did what it was asked, and is answered as aborted.
        return outcome === ABORTED ? running.abortedAnswer() : (outcome as R);
      },
      (error: unknown) => {
        running.finish();
        call.caller.endCall(requestId, controller);
        return running.failureAnswer(error);
      },
    );
  }

  /**
   * The MRTR round of a stateless request that may ask for input, bound to who asks, the item and
   * its arguments; none for 2025 sessions (they ask with requests of their own) and other requests.
   * @throws JsonRpcError -32602 for a `requestState` that is not this request's.
   */
  private roundOf(call: MessageContext, request: RequestItem): InputRoundSlot | undefined {
    const { input } = request;
    if (call.caller.era !== 'modern' || !input) return undefined;
    const binding = (): StateBinding => ({
      principal: call.caller.principal ?? '',
      item: `${input.method}\0${request.uri ?? request.name}`,
      args: digestOf(input.arguments ?? {}),
    });
    const slot = new InputRoundSlot(() => new InputRound(this.rounds, binding, input));
    // Answers and a state are the request's own: opened (and a forged state refused) before anything runs.
    if (input.requestState !== undefined || input.inputResponses !== undefined) slot.get();
    return slot;
  }

  private contextSettingsOf(answers: CallAnswers<unknown>): McpContextSettings {
    let settings = this.contextSettings.get(answers);
    if (!settings) {
      const { clientRequestTimeoutMs, validators } = this.settings;
      settings = {
        clientRequestTimeoutMs,
        validators,
        logger: answers.logger,
        ...(this.telemetry.enabled ? { telemetry: this.telemetry } : {}),
      };
      this.contextSettings.set(answers, settings);
    }
    return settings;
  }
}
