import 'reflect-metadata';
import { jest } from '@jest/globals';
import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  InternalServerErrorException,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import type { ExecutionArgs, Invocation } from '../execution/invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { CallToolResult } from '../protocol/mcp.types.js';
import type { MessageContext } from '../execution/message-context.js';
import { ClientSession } from '../session/client-session.js';
import { JsonSchemaValidatorFactory } from '../schemas/json-schema.validator.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import type { ArgumentsChecker } from '../schemas/arguments-checker.js';
import { Schemas } from '../schemas/schemas.js';
import { ToolCaller } from './tool.caller.js';
import { ToolStore } from './tool.store.js';
import { testSession } from '../../test/internals/client-session.js';
import { testToolCaller } from '../../test/internals/lifecycle.js';

type Execute = (args: ExecutionArgs) => Promise<unknown>;

/** A pipeline standing in for Nest's: guards and execution are the test's. */
interface FakeTarget extends PipelineTarget {
  readonly canActivate: jest.Mock<(args: ExecutionArgs) => Promise<boolean>>;
  readonly execute: jest.Mock<Execute>;
}

function fakeTarget(execute: Execute, options: { allow?: boolean; reportsErrors?: boolean } = {}): FakeTarget {
  return {
    guarded: true,
    canActivate: jest.fn((_args: ExecutionArgs) => Promise.resolve(options.allow ?? true)),
    execute: jest.fn(execute),
    reportsErrors: options.reportsErrors ?? true,
  };
}

const outputs = new JsonSchemaValidatorFactory();
const FORECAST_OUTPUT = outputs.compile({
  type: 'object',
  properties: { celsius: { type: 'number' } },
  required: ['celsius'],
  additionalProperties: false,
});

interface Fixture {
  readonly caller: ToolCaller;
  readonly store: ToolStore;
  readonly session: ClientSession;
  readonly call: MessageContext;
  readonly request: { user: { sub: string } };
  /** `Logger.error` calls of the McpTools logger, with their arguments as given. */
  readonly errors: () => unknown[][];
  /** Registers a fake tool whose `target()` returns `target`. */
  add(name: string, target: PipelineTarget, extra?: Partial<RegisteredTool>): FakeTool;
}

interface FakeTool extends RegisteredTool {
  readonly checkArguments: jest.Mock<ArgumentsChecker>;
  readonly target: jest.Mock<(request: unknown) => PipelineTarget>;
}

function setup(): Fixture {
  const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  const options = resolveMcpOptions({ name: 'pipeline-test', version: '1.0.0' });
  const schemas = new Schemas();
  const store = new ToolStore(schemas);
  const caller = testToolCaller(store, options, schemas);
  const session = testSession();
  const request = { user: { sub: 'alice' } };
  const call: MessageContext = { transport: 'http', caller: session, session, httpRequest: request, headers: {} };
  return {
    caller,
    store,
    session,
    call,
    request,
    errors: () =>
      error.mock.calls.filter(
        (_args, index) => (error.mock.contexts[index] as { context?: string }).context === 'McpTools',
      ),
    add(name, target, extra = {}) {
      const tool: FakeTool = {
        definition: { name, description: `${name} tool`, inputSchema: { type: 'object' } },
        owner: `FakeTools.${name}`,
        checkArguments: jest.fn<ArgumentsChecker>((raw) =>
          Promise.resolve({ ok: true, value: { ...raw, checked: true } }),
        ),
        target: jest.fn((_request: unknown) => target),
        ...extra,
      } as FakeTool;
      store.add(tool);
      return tool;
    },
  };
}

const invocationOf = (args: ExecutionArgs): Invocation => args[3];

/** The JSON-RPC error a call fails with, failing the test when it answers instead. */
async function rejection(promise: Promise<CallToolResult>): Promise<JsonRpcError> {
  const outcome = await promise.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a JSON-RPC error, got ${JSON.stringify(outcome.result)}`);
  expect(outcome.error).toBeInstanceOf(JsonRpcError);
  return outcome.error as JsonRpcError;
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('ToolCaller: the pipeline', () => {
  describe('guards', () => {
    it('answers a denied call exactly as a call to a tool that does not exist, checking nothing', async () => {
      const f = setup();
      const target = fakeTarget(() => Promise.resolve('secret data'), { allow: false });
      const tool = f.add('secret', target);

      const denied = await callTool(f.caller, { name: 'secret', arguments: { a: 1 } }, f.call, 1);
      const unknown = await callTool(f.caller, { name: 'nothing-here', arguments: { a: 1 } }, f.call, 2);

      expect(denied).toEqual({ content: [{ type: 'text', text: 'Unknown tool: secret' }], isError: true });
      expect(unknown).toEqual({ content: [{ type: 'text', text: 'Unknown tool: nothing-here' }], isError: true });
      expect(target.canActivate).toHaveBeenCalledTimes(1);
      expect(tool.checkArguments).not.toHaveBeenCalled();
      expect(target.execute).not.toHaveBeenCalled();
      expect(f.errors()).toEqual([]);
      expect(f.session.runningCalls).toBe(0);
    });

    it('asks the guards with the raw arguments of the call, in an MCP invocation', async () => {
      const f = setup();
      const target = fakeTarget(() => Promise.resolve('ok'));
      f.add('forecast', target);
      await callTool(f.caller, { name: 'forecast', arguments: { city: 'Bern' } }, f.call, 1);

      const args = target.canActivate.mock.calls[0]![0];
      expect(args[0]).toBe(f.request);
      expect(args[1]).toBeUndefined();
      expect(args[2]).toBeUndefined();
      const invocation = invocationOf(args);
      expect(invocation).toMatchObject({ phase: 'call', name: 'forecast', arguments: { city: 'Bern' } });
      expect(invocation.session).toBe(f.session);
      expect(invocation.request).toBe(f.request);
      expect(invocation.context).toBeDefined();
    });

    it('gets the target for the HTTP request of the call', async () => {
      const f = setup();
      const tool = f.add(
        'forecast',
        fakeTarget(() => Promise.resolve('ok')),
      );
      await callTool(f.caller, { name: 'forecast' }, f.call, 1);
      expect(tool.target).toHaveBeenCalledWith(f.request);
    });
  });

  describe('arguments', () => {
    it('runs the pipeline with the checked arguments, after the guards', async () => {
      const f = setup();
      const order: string[] = [];
      const target = fakeTarget((args) => {
        order.push('execute');
        return Promise.resolve(JSON.stringify(invocationOf(args).arguments));
      });
      target.canActivate.mockImplementation(() => {
        order.push('guards');
        return Promise.resolve(true);
      });
      const tool = f.add('forecast', target);
      tool.checkArguments.mockImplementation((raw) => {
        order.push('check');
        return Promise.resolve({ ok: true, value: { ...raw, checked: true } });
      });

      const result = await callTool(f.caller, { name: 'forecast', arguments: { city: 'Bern' } }, f.call, 1);
      expect(order).toEqual(['guards', 'check', 'execute']);
      expect(tool.checkArguments).toHaveBeenCalledWith({ city: 'Bern' });
      expect(invocationOf(target.execute.mock.calls[0]![0])).toMatchObject({
        phase: 'call',
        arguments: { city: 'Bern', checked: true },
      });
      expect(result).toEqual({ content: [{ type: 'text', text: '{"city":"Bern","checked":true}' }] });
    });

    it('checks {} when the call has no arguments', async () => {
      const f = setup();
      const tool = f.add(
        'forecast',
        fakeTarget(() => Promise.resolve('ok')),
      );
      await callTool(f.caller, { name: 'forecast' }, f.call, 1);
      expect(tool.checkArguments).toHaveBeenCalledWith({});
    });

    it('answers refused arguments with an error result listing the problems, and runs nothing', async () => {
      const f = setup();
      const target = fakeTarget(() => Promise.resolve('ok'));
      const tool = f.add('forecast', target);
      tool.checkArguments.mockResolvedValue({ ok: false, problems: ['city: must be a string', 'days: too many'] });
      expect(await callTool(f.caller, { name: 'forecast', arguments: { city: 1 } }, f.call, 1)).toEqual({
        content: [
          { type: 'text', text: 'Invalid arguments for tool forecast:\n- city: must be a string\n- days: too many' },
        ],
        isError: true,
      });
      expect(target.execute).not.toHaveBeenCalled();
    });
  });

  describe('failures', () => {
    it.each<[string, HttpException, string]>([
      ['a NotFoundException', new NotFoundException('No such city: Atlantis'), 'No such city: Atlantis'],
      [
        'a BadRequestException listing problems',
        new BadRequestException(['days must be positive', 'city is empty']),
        'days must be positive; city is empty',
      ],
      ['a ForbiddenException', new ForbiddenException(), 'Forbidden'],
      [
        'an HttpException with a string response',
        new HttpException('Slow down', HttpStatus.TOO_MANY_REQUESTS),
        'Slow down',
      ],
      [
        'an HttpException with an object response without message',
        new HttpException({ reason: 'gone' }, HttpStatus.GONE),
        'Http Exception',
      ],
    ])('answers %s from the pipeline with an error result carrying its message', async (_label, exception, message) => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.reject(exception)),
      );
      expect(await callTool(f.caller, { name: 'forecast', arguments: { city: 'Atlantis' } }, f.call, 1)).toEqual({
        content: [{ type: 'text', text: `Tool forecast failed: ${message}` }],
        isError: true,
      });
      expect(f.errors()).toEqual([]);
    });

    it.each<[string, Error]>([
      ['an InternalServerErrorException', new InternalServerErrorException('database password is hunter2')],
      ['a ServiceUnavailableException', new ServiceUnavailableException('backend down')],
      ['a plain Error', new Error('undefined is not a function')],
    ])('answers %s with a bare internal error (-32603) and logs it', async (_label, exception) => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.reject(exception), { reportsErrors: false }),
      );
      const error = await rejection(callTool(f.caller, { name: 'forecast' }, f.call, 1));
      expect(error.code).toBe(ErrorCode.InternalError);
      expect(error.code).toBe(-32603);
      expect(error.toErrorObject()).toEqual({ code: -32603, message: 'Internal error' });
      expect(f.errors()).toEqual([
        ['Tool forecast (FakeTools.forecast) failed; answered with an internal error', exception.stack],
      ]);
      expect(f.session.runningCalls).toBe(0);
    });

    it('logs a non-Error failure as its string when the pipeline did not report it', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.reject('just a string'), { reportsErrors: false }),
      );
      expect((await rejection(callTool(f.caller, { name: 'forecast' }, f.call, 1))).code).toBe(-32603);
      expect(f.errors()).toEqual([
        ['Tool forecast (FakeTools.forecast) failed; answered with an internal error', 'just a string'],
      ]);
    });

    it('logs the stack of a 5xx HttpException even when the pipeline ran: Nest does not log intrinsic exceptions', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.reject(new InternalServerErrorException('boom')), { reportsErrors: true }),
      );
      expect((await rejection(callTool(f.caller, { name: 'forecast' }, f.call, 1))).code).toBe(-32603);
      const lines = f.errors();
      expect(lines).toHaveLength(1);
      expect(lines[0]![0]).toBe('Tool forecast (FakeTools.forecast) failed; answered with an internal error');
      expect(String(lines[0]![1])).toContain('InternalServerErrorException: boom');
    });

    it('logs one line without the stack when the pipeline reported the failure already', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.reject(new Error('boom')), { reportsErrors: true }),
      );
      expect((await rejection(callTool(f.caller, { name: 'forecast' }, f.call, 1))).code).toBe(-32603);
      const lines = f.errors();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toEqual(['Tool forecast (FakeTools.forecast) failed; answered with an internal error']);
      expect(lines[0]).toHaveLength(1);
    });

    it('answers a result shaped like a CallToolResult with a malformed block as an error result, logging it', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(
          () =>
            Promise.resolve({
              content: [{ type: 'image', data: 'YW-_', mimeType: 'image/png' }],
              isError: true,
            }),
          { reportsErrors: true },
        ),
      );
      expect(await callTool(f.caller, { name: 'forecast' }, f.call, 1)).toEqual({
        content: [{ type: 'text', text: 'Tool forecast produced an invalid result: a malformed content block' }],
        isError: true,
      });
      expect(f.errors()).toEqual([
        ['Tool forecast (FakeTools.forecast) returned a result with a malformed content block'],
      ]);
    });

    it('answers a tool whose target() cannot be built as an unknown tool, logging the failure with its stack', async () => {
      const f = setup();
      const failure = new Error('cannot resolve a request-scoped provider');
      const tool = f.add(
        'forecast',
        fakeTarget(() => Promise.resolve('ok'), { reportsErrors: true }),
      );
      tool.target.mockImplementation(() => {
        throw failure;
      });
      // As in tools/list, where such a tool is left out: a call must not tell it apart from an unknown one.
      expect(await callTool(f.caller, { name: 'forecast' }, f.call, 1)).toEqual({
        content: [{ type: 'text', text: 'Unknown tool: forecast' }],
        isError: true,
      });
      expect(f.errors()).toEqual([
        ['Tool forecast (FakeTools.forecast) could not be prepared; answered as if it did not exist', failure.stack],
      ]);
    });

    it.each<[string, Error]>([
      ['an McpToolError', new McpToolError('Atlantis is not a city I know')],
      ['an McpClientRequestError', new McpClientRequestError('Atlantis is not a city I know', -32001)],
    ])('answers %s with an error result carrying its message, logging nothing', async (_label, exception) => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.reject(exception), { reportsErrors: false }),
      );
      expect(await callTool(f.caller, { name: 'forecast' }, f.call, 1)).toEqual({
        content: [{ type: 'text', text: 'Atlantis is not a city I know' }],
        isError: true,
      });
      expect(f.errors()).toEqual([]);
    });
  });

  describe('output', () => {
    it('sends a conforming result as structuredContent and JSON text', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.resolve({ celsius: 21 })),
        { checkOutput: FORECAST_OUTPUT },
      );
      expect(await callTool(f.caller, { name: 'forecast' }, f.call, 1)).toEqual({
        content: [{ type: 'text', text: '{"celsius":21}' }],
        structuredContent: { celsius: 21 },
      });
      expect(f.errors()).toEqual([]);
    });

    it('answers a result its output schema refuses with an error result, and logs it as a bug', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.resolve({ celsius: 'warm', wind: 3 })),
        {
          checkOutput: FORECAST_OUTPUT,
        },
      );
      const result = await callTool(f.caller, { name: 'forecast' }, f.call, 1);
      expect(result.isError).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      expect(text).toMatch(/^Tool forecast produced an invalid result: /);
      expect(text).toContain('/celsius: must be number');
      expect(text).toContain("must NOT have additional property 'wind'");
      expect(result).not.toHaveProperty('structuredContent');

      const lines = f.errors();
      expect(lines).toHaveLength(1);
      expect(lines[0]![0]).toMatch(
        /^Tool forecast \(FakeTools\.forecast\) returned a result its outputSchema refuses: /,
      );
      expect(lines[0]![0]).toContain('/celsius: must be number');
    });

    it('answers a non-object result of a tool with an output schema with an error result', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.resolve('21 degrees')),
        { checkOutput: FORECAST_OUTPUT },
      );
      expect(await callTool(f.caller, { name: 'forecast' }, f.call, 1)).toEqual({
        content: [
          {
            type: 'text',
            text: 'Tool forecast produced an invalid result: the tool returned a string, not an object matching its outputSchema',
          },
        ],
        isError: true,
      });
      expect(f.errors()).toHaveLength(1);
    });

    it('passes an error result of a tool with an output schema through unchecked', async () => {
      const f = setup();
      const failure: CallToolResult = { content: [{ type: 'text', text: 'no data for Atlantis' }], isError: true };
      f.add(
        'forecast',
        fakeTarget(() => Promise.resolve(failure)),
        { checkOutput: FORECAST_OUTPUT },
      );
      expect(await callTool(f.caller, { name: 'forecast' }, f.call, 1)).toBe(failure);
      expect(f.errors()).toEqual([]);
    });

    it('maps the result of a tool without an output schema as it is', async () => {
      const f = setup();
      f.add(
        'forecast',
        fakeTarget(() => Promise.resolve({ celsius: 'warm' })),
      );
      expect(await callTool(f.caller, { name: 'forecast' }, f.call, 1)).toEqual({
        content: [{ type: 'text', text: '{"celsius":"warm"}' }],
      });
    });
  });
});

/** A 2025 session's tool call: never an `input_required` round, so its answer is a `CallToolResult`. */
function callTool(caller: ToolCaller, ...args: Parameters<ToolCaller['call']>): Promise<CallToolResult> {
  return caller.call(...args) as Promise<CallToolResult>;
}
