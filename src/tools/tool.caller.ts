import { Injectable } from '@nestjs/common';
import { CallLifecycle } from '../execution/call-lifecycle.js';
import { kindLoggers } from '../execution/kind-loggers.js';
import type { MessageContext } from '../execution/message-context.js';
import type { CallCandidate, RunningCall } from '../execution/running-call.js';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { JsonRpcParams } from '../protocol/json-rpc.types.js';
import {
  createTaskResult,
  declaresTasksExtension,
  legacyTask,
  readTaskAugmentation,
  tasksExtensionRequired,
  type TaskSupport,
} from '../protocol/tasks.js';
import { TaskService } from '../tasks/task.service.js';
import type { McpEra } from '../protocol/era-classifier.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import type { CallToolParams, CallToolResult, InputRequiredResult } from '../protocol/mcp.types.js';
import { readHeader } from '../protocol/header-value.js';
import { checkParamHeaders } from '../protocol/param-headers.js';
import { invalidToolArguments, toolAnswers, unknownTool } from './tool-answers.js';
import { isMalformedCallToolResult, textResult, toCallToolResult, toStructuredResult } from './tool-result.mapper.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { ToolStore } from './tool.store.js';

/** The progress token of a task's own run: its progress becomes the task's status message. */
const TASK_PROGRESS_TOKEN = 'task';

/** How {@link ToolCaller} serves one call in the lifecycle. */
interface CallNowOptions {
  /**
   * Whether a 2026-07-28 call may end a round to ask for input (MRTR); a task asks through the
   * task instead.
   */
  readonly rounds?: boolean;
  /** The work of a task: its guards (and `Mcp-Param-*` headers) were checked in the request. */
  readonly guardsPassed?: boolean;
  /** Told once the guards admit the caller, before the arguments: what it throws is the answer. */
  readonly onAdmitted?: () => void;
}

/**
 * Thrown once the guards admit a call that goes on as a task: the request stops there, and the
 * task's run starts after admission. A JSON-RPC error so that the lifecycle hands it back as it is.
 */
class TaskAdmission extends JsonRpcError {
  constructor() {
    super(ErrorCode.InternalError, 'The call goes on as a task');
  }
}

/** The progress token the client gave the call, if any. */
function progressTokenOf(params: CallToolParams): string | number | undefined {
  const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token)) ? token : undefined;
}

/** A tool's candidate, but for the arguments of one call. */
type ToolPlan = Omit<CallCandidate<CallToolResult>, 'raw'>;

/**
 * The answer to a tool that does not exist or that the caller may not see, per era: an `isError`
 * result for 2025 sessions (the model reads it), the -32602 protocol error 2026-07-28 prescribes.
 */
const UNKNOWN_TOOL: Readonly<Record<McpEra, (name: string) => CallToolResult>> = {
  legacy: unknownTool,
  modern: (name) => {
    throw invalidParams(`Unknown tool: ${name}`);
  },
};

/**
 * Serves `tools/call` on the one call lifecycle. What tools add to it: the tool is found by name;
 * an unknown tool, one the caller's guards deny and one aborted before they admitted the caller are
 * all answered `Unknown tool`; arguments the input refuses, failures a model can act on and
 * timeouts are `isError` results; a value is mapped to a `CallToolResult`, checked against the
 * tool's `outputSchema` when it has one. On 2026-07-28, arguments mirrored into `Mcp-Param-*`
 * headers are checked against them once the guards admit the caller (a hidden tool reveals nothing).
 */
@Injectable()
export class ToolCaller {
  private readonly logger = kindLoggers().tool;
  private readonly answers = toolAnswers(this.logger);
  private readonly plans = new WeakMap<RegisteredTool, ToolPlan>();

  constructor(
    private readonly tools: ToolStore,
    private readonly lifecycle: CallLifecycle,
    private readonly tasks: TaskService,
  ) {}

  /**
   * Serves a call: as a task when the tool supports tasks and the client can take one (see
   * {@link taskOf}), else in its request. The caller's guards run once, in the request: a tool it
   * may not see neither makes a task nor says it needs one, and the task's run does not ask them again.
   */
  call(
    params: CallToolParams,
    call: MessageContext,
    requestId: RequestId,
  ): Promise<CallToolResult | InputRequiredResult | Readonly<Record<string, unknown>>> {
    const tool = this.tools.get(params.name);
    const support = tool?.definition.execution?.taskSupport;
    // Most tools never run as tasks: their calls go straight to the lifecycle, with no promise of their own here.
    if (!tool || support === undefined || support === 'forbidden') return this.callNow(params, call, requestId);
    return this.callMaybeTask(tool, support, params, call, requestId);
  }

  /** {@link call} of a tool that supports tasks. */
  private async callMaybeTask(
    tool: RegisteredTool,
    support: TaskSupport,
    params: CallToolParams,
    call: MessageContext,
    requestId: RequestId,
  ): Promise<CallToolResult | InputRequiredResult | Readonly<Record<string, unknown>>> {
    let task: ReturnType<ToolCaller['taskOf']>;
    try {
      task = this.taskOf(support, params, call);
    } catch (malformed) {
      // A malformed params.task is told only to a caller the guards admit: to others the tool stays hidden.
      return this.callNow(params, call, requestId, {
        onAdmitted: () => {
          throw malformed;
        },
      });
    }
    if (task === undefined) return this.callNow(params, call, requestId);
    if (task === 'refused') {
      // Refused once the guards admit the caller: the plain call answers a hidden tool.
      return this.callNow(params, call, requestId, {
        onAdmitted: () => {
          throw this.taskRefusal(params.name, call);
        },
      });
    }
    if (tool.taskStart === 'handler' && call.caller.era === 'modern') {
      // The handler starts the task itself, after the rounds it needs in its request.
      let carried: Readonly<Record<string, unknown>> | undefined;
      const result = await this.callNow(
        params,
        { ...call, taskStart: { start: (answers) => (carried = answers) } },
        requestId,
      );
      if (carried === undefined) return result;
      return this.startTask(params, call, requestId, task.ttlMs, carried);
    }
    try {
      // Answered only when the guards do not admit the caller: as the plain call answers a hidden tool.
      return await this.callNow(params, call, requestId, {
        onAdmitted: () => {
          throw new TaskAdmission();
        },
      });
    } catch (error) {
      if (error instanceof TaskAdmission) return this.startTask(params, call, requestId, task.ttlMs);
      throw error;
    }
  }

  /** Creates the task of a call and runs the call in it: the request is answered with the task. */
  private async startTask(
    params: CallToolParams,
    call: MessageContext,
    requestId: RequestId,
    ttlMs: number | undefined,
    carried?: Readonly<Record<string, unknown>>,
  ): Promise<Readonly<Record<string, unknown>>> {
    const record = await this.tasks.start(
      call,
      params.name,
      ttlMs,
      async (taskCall) =>
        // Without rounds, the lifecycle answers a result, never an interim one.
        (await this.callNow(
          // The task's own progress token: its progress becomes the task's status message.
          { ...params, _meta: { ...params._meta, progressToken: TASK_PROGRESS_TOKEN } },
          taskCall,
          requestId,
          { rounds: false, guardsPassed: true },
        )) as CallToolResult as unknown as Record<string, unknown>,
      carried,
      progressTokenOf(params),
    );
    return call.caller.era === 'modern' ? createTaskResult(record) : { task: legacyTask(record) };
  }

  /**
   * Whether a call of a tool that supports tasks runs as one: 2026-07-28 when the request declares
   * the tasks extension (a legacy `params.task` means nothing there), 2025-11-25 when it sends
   * `params.task`; `refused` when the tool requires a task and the client cannot take one.
   */
  private taskOf(
    support: TaskSupport,
    params: CallToolParams,
    call: MessageContext,
  ): { ttlMs?: number } | 'refused' | undefined {
    if (call.caller.era === 'modern') {
      if (declaresTasksExtension(call.caller.clientCapabilities)) return {};
    } else {
      const asked = readTaskAugmentation(params as unknown as JsonRpcParams);
      if (asked) return asked;
    }
    return support === 'required' ? 'refused' : undefined;
  }

  private taskRefusal(name: string, call: MessageContext): JsonRpcError {
    return call.caller.era === 'modern'
      ? tasksExtensionRequired(`Tool ${name}`)
      : new JsonRpcError(ErrorCode.MethodNotFound, `Tool ${name} runs only as a task: call it with params.task`);
  }

  /** Serves a call in the lifecycle, in its request or as the work of a task. */
  private callNow(
    params: CallToolParams,
    call: MessageContext,
    requestId: RequestId,
    { rounds = true, guardsPassed = false, onAdmitted }: CallNowOptions = {},
  ): Promise<CallToolResult | InputRequiredResult> {
    const { name } = params;
    const unknown = UNKNOWN_TOOL[call.caller.era];
    const request = {
      kind: 'tool' as const,
      name,
      meta: params._meta,
      input: { method: Method.ToolsCall, ...params },
    };
    // Not async: what it returns is the lifecycle's promise, and a throw is the race's rejection all the same.
    const work = (running: RunningCall<CallToolResult>): Promise<CallToolResult> => {
      const tool = this.tools.get(name);
      if (!tool) return Promise.resolve(unknown(name));
      const plan = this.planOf(tool);
      const { paramHeaders } = tool;
      // Over stdio there is no header layer: the body is the only source, nothing is mirrored to check.
      const checkHeaders =
        !guardsPassed && call.caller.era === 'modern' && call.transport !== 'stdio' && paramHeaders.length > 0
          ? () => checkParamHeaders(paramHeaders, params.arguments, (header) => readHeader(call.headers, header))
          : undefined;
      const admitted =
        checkHeaders && onAdmitted
          ? () => {
              checkHeaders();
              onAdmitted();
            }
          : (checkHeaders ?? onAdmitted);
      return running.serveOne({ ...plan, raw: params.arguments ?? {}, admitted, guardsPassed }, () => unknown(name));
    };
    if (!rounds) return this.lifecycle.run(this.answers, call, requestId, { ...request, input: undefined }, work);
    return this.lifecycle.run(this.answers, call, requestId, request, work);
  }

  /** What serving a tool takes beside its arguments: built once per tool, not per call. */
  private planOf(tool: RegisteredTool): ToolPlan {
    let plan = this.plans.get(tool);
    if (!plan) {
      const { name } = tool.definition;
      plan = {
        handler: tool,
        item: { kind: 'tool', name },
        arguments: { check: tool.checkArguments, invalid: (problems) => invalidToolArguments(name, problems) },
        map: (value) => this.toResult(tool, value),
      };
      this.plans.set(tool, plan);
    }
    return plan;
  }

  private toResult(tool: RegisteredTool, value: unknown): CallToolResult {
    const { name } = tool.definition;
    if (isMalformedCallToolResult(value)) {
      // Shaped like a result but not one a client accepts: sending it as JSON text would drop its
      // `isError` without a word. A bug of the tool, told to the developer and, as an error, to the model.
      this.logger.error(`Tool ${name} (${tool.owner}) returned a result with a malformed content block`);
      return textResult(`Tool ${name} produced an invalid result: a malformed content block`, true);
    }
    if (!tool.checkOutput) return toCallToolResult(value);
    const outcome = toStructuredResult(value, tool.checkOutput);
    if ('result' in outcome) return outcome.result;
    const problems = outcome.problems.join('; ');
    // The tool broke its own contract: the model cannot fix that, the developer must.
    this.logger.error(`Tool ${name} (${tool.owner}) returned a result its outputSchema refuses: ${problems}`);
    return textResult(`Tool ${name} produced an invalid result: ${problems}`, true);
  }
}
