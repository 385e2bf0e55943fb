import type { Logger } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import { MAX_TIMER_MS } from '../mcp.constants.js';
import type {
  McpClientRequestOptions,
  McpContext,
  McpLogFunction,
  McpProgress,
} from '../interfaces/mcp-context.interface.js';
import { missingClientCapability } from '../protocol/client-capabilities.js';
import type { McpEra } from '../protocol/era-classifier.js';
import type { McpTransportKind } from '../interfaces/mcp-transport.interface.js';
import { createMessageResultProblem, elicitResultProblem, listRootsResultProblem } from '../protocol/client-results.js';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { JsonRpcParams, RequestId } from '../protocol/json-rpc.types.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../protocol/logging-level.js';
import { Method } from '../protocol/methods.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  Meta,
  ProgressToken,
} from '../protocol/mcp.types.js';
import type { ServerTelemetry } from '../interfaces/mcp-telemetry.interface.js';
import type { MessageContext } from './message-context.js';
import type { JsonSchemaValidatorFactory, SchemaValidator } from '../schemas/json-schema.validator.js';
import { InputProtocolError } from './input-protocol.error.js';
import type { InputRoundSlot } from './input-round-slot.js';

/** What a handler context needs beyond the call itself. */
export interface McpContextSettings {
  readonly clientRequestTimeoutMs: number;
  /** Compiles the schemas elicitation answers are checked against (shared, bounded). */
  readonly validators: JsonSchemaValidatorFactory;
  /** For reports the context drops (late or non-growing progress): worth a debug line, not more. */
  readonly logger: Logger;
  /** The server's telemetry, when it has one: what it sends the client carries the trace context. */
  readonly telemetry?: ServerTelemetry;
}

/**
 * The {@link McpContext} of one request of an item (a tool call, a resource read, a prompt, a
 * completion). Reads through to the session and request lazily.
 */
export class McpContextImpl implements McpContext {
  private finished = false;
  private lastProgress = -Infinity;
  /**
   * Aborts when the call has its result: requests to the client it left waiting are withdrawn then.
   * Created with the first such request: most calls send none, and a controller per call is not free.
   */
  private answered: AbortController | undefined;
  private logFunction: McpLogFunction | undefined;
  /** `once` values of a 2025 call, which has no rounds to carry them across. */
  private onceValues: Map<string, Promise<unknown>> | undefined;

  /**
   * @param abort what aborts the call: its signal is made only if the handler reads it.
   * @param round the MRTR round of a stateless request that may ask the client for input.
   */
  constructor(
    private readonly call: MessageContext,
    readonly requestId: RequestId,
    private itemName: string,
    readonly meta: Meta | undefined,
    private readonly abort: { readonly signal: AbortSignal; abort(reason?: unknown): void },
    private readonly settings: McpContextSettings,
    private readonly round?: InputRoundSlot,
  ) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get name(): string {
    return this.itemName;
  }

  /**
   * Names the item once it is known: a resource read learns which resource serves its URI only
   * when that resource's guards admit the caller.
   * @internal
   */
  rename(name: string): void {
    this.itemName = name;
  }

  get sessionId(): string | undefined {
    return this.call.caller.session?.id;
  }

  get era(): McpEra {
    return this.call.caller.era;
  }

  get protocolVersion(): string {
    return this.call.caller.protocolVersion;
  }

  get transport(): McpTransportKind {
    return this.call.transport;
  }

  get clientInfo(): Implementation | undefined {
    return this.call.caller.clientInfo;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.call.caller.clientCapabilities;
  }

  get request(): unknown {
    return this.call.httpRequest;
  }

  get headers(): IncomingHttpHeaders {
    return this.call.headers;
  }

  get user(): unknown {
    return (this.call.httpRequest as { user?: unknown } | undefined)?.user;
  }

  get log(): McpLogFunction {
    this.logFunction ??= this.buildLog();
    return this.logFunction;
  }

  /** The call has its result: nothing more may be sent for it, and what it still awaits is withdrawn. */
  finish(): void {
    if (this.finished) return;
    // Aborted before the flag is set, so the withdrawals still go out on the call's stream.
    this.answered?.abort(
      new McpClientRequestError('Withdrawn: the call that sent this request has its result', ErrorCode.InvalidRequest),
    );
    this.finished = true;
  }

  reportProgress({ progress, total, message }: McpProgress): boolean {
    const token = this.progressToken();
    if (token === undefined) return false;
    if (this.finished) {
      this.settings.logger.debug(`Progress of ${this.itemName} after its result was dropped`);
      return false;
    }
    if (!Number.isFinite(progress) || progress <= this.lastProgress) {
      this.settings.logger.debug(`Progress ${progress} of ${this.itemName} does not grow; dropped`);
      return false;
    }
    this.lastProgress = progress;
    const params: JsonRpcParams = { progressToken: token, progress };
    if (total !== undefined && Number.isFinite(total)) params.total = total;
    if (typeof message === 'string') params.message = message;
    return this.sendRelated(Method.Progress, params);
  }

  elicit(params: ElicitRequestParams, options?: McpClientRequestOptions): Promise<ElicitResult> {
    // The form's schema is the tool's own: a broken one is a bug to report before asking anybody.
    let checkContent: SchemaValidator | undefined;
    try {
      checkContent = params.mode === 'url' ? undefined : this.settings.validators.compileShared(params.requestedSchema);
    } catch (error) {
      const refused = Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
      refused.catch(() => undefined); // as for every request: never an unhandled rejection
      return refused;
    }
    return this.requestClient(
      Method.ElicitationCreate,
      params as unknown as JsonRpcParams,
      (result) => elicitResultProblem(result) ?? submittedContentProblem(result as ElicitResult, checkContent),
      options,
    ) as Promise<ElicitResult>;
  }

  sample(params: CreateMessageRequestParams, options?: McpClientRequestOptions): Promise<CreateMessageResult> {
    return this.requestClient(
      Method.SamplingCreateMessage,
      params as JsonRpcParams,
      createMessageResultProblem,
      options,
    ) as Promise<CreateMessageResult>;
  }

  listRoots(options?: McpClientRequestOptions): Promise<ListRootsResult> {
    return this.requestClient(Method.RootsList, {}, listRootsResultProblem, options) as Promise<ListRootsResult>;
  }

  once<T>(key: string, work: () => T | Promise<T>): Promise<T> {
    let value: Promise<unknown> | undefined;
    if (this.round) {
      value = this.round.get().once(key, work);
    } else {
      this.onceValues ??= new Map();
      value = this.onceValues.get(key);
      if (!value) {
        value = Promise.resolve().then(work);
        this.onceValues.set(key, value);
      }
    }
    // Marked handled, as requests to the client are: one never awaited must not bring the process down.
    value.catch(() => undefined);
    return value as Promise<T>;
  }

  startTask(): Promise<void> {
    const port = this.call.taskStart;
    if (!port || this.finished) return Promise.resolve();
    port.start(this.round?.get().carriedAnswers ?? {});
    const reason = new McpCallAbortedError('task-started', `${this.itemName} goes on as a task`);
    this.abort.abort(reason);
    // The handler goes no further in its request: it runs again in the task.
    const stopped = Promise.reject(reason);
    stopped.catch(() => undefined);
    return stopped;
  }

  closeConnection(retryMs?: number): boolean {
    if (this.finished || !this.call.channel) return false;
    return this.call.channel.closeConnection(retryMs);
  }

  /**
   * `params` with the trace context of the operation running now in its `_meta` (SEP-414 keys,
   * unprefixed), so that the client's handling of it joins the trace.
   */
  private traced(params: JsonRpcParams): JsonRpcParams {
    const trace = this.settings.telemetry?.traceMeta();
    if (trace === undefined) return params;
    const meta = params._meta;
    return { ...params, _meta: typeof meta === 'object' && meta !== null ? { ...meta, ...trace } : trace };
  }

  private progressToken(): ProgressToken | undefined {
    const token = this.meta?.progressToken;
    return typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token)) ? token : undefined;
  }

  private sendRelated(method: string, params: JsonRpcParams): boolean {
    if (this.finished || !this.call.channel) return false;
    return this.call.channel.send(notificationMessage(method, this.traced(params)));
  }

  /**
   * A request to the client, as a promise already marked handled: a tool that fires one and never
   * awaits it must not bring the process down with an unhandled rejection when it is withdrawn.
   */
  private requestClient(
    method: string,
    params: JsonRpcParams,
    problemOf: (result: unknown) => string | undefined,
    options: McpClientRequestOptions = {},
  ): Promise<unknown> {
    const request = this.sendClientRequest(method, params, problemOf, options);
    request.catch(() => undefined);
    return request;
  }

  private async sendClientRequest(
    method: string,
    params: JsonRpcParams,
    problemOf: (result: unknown) => string | undefined,
    options: McpClientRequestOptions,
  ): Promise<unknown> {
    const { session, channel, caller } = this.call;
    if (caller.era === 'legacy' && !session) {
      throw new McpClientRequestError(
        `${method} needs a 2025 session; this server serves 2025 clients without sessions (sessions.enabled: false)`,
        ErrorCode.InvalidRequest,
      );
    }
    const missing = missingClientCapability(method, params, caller.clientCapabilities);
    if (missing !== undefined) {
      const message = `The client cannot take ${method}: it did not declare the "${missing}" capability`;
      if (caller.era === 'modern') {
        throw new InputProtocolError(message, ErrorCode.MissingRequiredClientCapability, {
          requiredCapabilities: capabilityObject(missing),
        });
      }
      throw new McpClientRequestError(message, ErrorCode.MethodNotFound);
    }
    if (this.call.taskInput) {
      if (this.finished) {
        throw new McpClientRequestError(`${method} cannot be sent: the task has its result`, ErrorCode.InvalidRequest);
      }
      return this.call.taskInput.ask(method, params, options.key, problemOf, options.timeoutMs);
    }
    if (caller.era === 'modern') {
      if (!this.round) {
        throw new McpClientRequestError(
          `${method} cannot be asked here: a stateless request asks for input only in tools/call, prompts/get and resources/read`,
          ErrorCode.InvalidRequest,
        );
      }
      // The input request travels in the input_required result; its _meta carries the trace as a request's would.
      return this.round.get().ask(method, this.traced(params), options.key, problemOf);
    }
    const timeoutMs = options.timeoutMs ?? this.settings.clientRequestTimeoutMs;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
      // Node runs a timer past 2^31 - 1 ms after 1 ms: such a request would time out at once.
      throw new RangeError(`timeoutMs must be a whole number from 1 to ${MAX_TIMER_MS}, got ${String(timeoutMs)}`);
    }
    if (this.finished || !channel || !session) {
      throw new McpClientRequestError(
        `${method} cannot be sent: the call already has its result`,
        ErrorCode.InvalidRequest,
      );
    }
    const answered = (this.answered ??= new AbortController());
    const result = await session.requestClient(method, this.traced(params), {
      send: (message) => !this.finished && channel.send(message),
      timeoutMs,
      signal: AbortSignal.any(
        options.signal ? [this.signal, answered.signal, options.signal] : [this.signal, answered.signal],
      ),
    });
    const problem = problemOf(result);
    if (problem !== undefined) {
      throw new McpClientRequestError(
        `The client answered ${method} with a malformed result: ${problem}`,
        ErrorCode.InvalidParams,
      );
    }
    return result;
  }

  private buildLog(): McpLogFunction {
    const log = ((level: LoggingLevel, data: unknown, logger?: string): boolean => {
      if (!this.call.caller.wantsLog(level)) return false;
      return this.sendRelated(Method.LogMessage, logger === undefined ? { level, data } : { level, logger, data });
    }) as McpLogFunction;
    for (const level of LOGGING_LEVELS) {
      log[level] = (data: unknown, logger?: string) => log(level, data, logger);
    }
    return log;
  }
}

/** `elicitation.url` as the `requiredCapabilities` object of a -32021 error: `{ elicitation: { url: {} } }`. */
function capabilityObject(path: string): Record<string, unknown> {
  return path.split('.').reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), {});
}

/** An accepted form must match the schema it was asked with (both sides SHOULD check, says the spec). */
function submittedContentProblem(result: ElicitResult, check: SchemaValidator | undefined): string | undefined {
  if (!check || result.action !== 'accept' || result.content === undefined) return undefined;
  const verdict = check(result.content);
  return verdict.ok ? undefined : `content does not match requestedSchema: ${verdict.problems.join('; ')}`;
}
