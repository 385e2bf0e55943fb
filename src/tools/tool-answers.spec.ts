import { jest } from '@jest/globals';
import { BadRequestException, Logger } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import type { CallStand } from '../execution/call-answers.js';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import { thrownBy } from '../../test/utils/thrown.js';
import { toolAnswers } from './tool-answers.js';

const logger = new Logger('McpTools');
const answers = toolAnswers(logger);
const handler = { owner: 'Weather.forecast', timeoutMs: 250, target: () => Promise.reject(new Error('unused')) };
const admitted: CallStand = { item: { kind: 'tool', name: 'forecast' }, handler };

afterEach(() => jest.restoreAllMocks());

describe('toolAnswers', () => {
  it('answers failures a model can act on as isError results', () => {
    expect(answers.failed(new McpToolError('no such city'), admitted, false)).toEqual({
      content: [{ type: 'text', text: 'no such city' }],
      isError: true,
    });
    expect(answers.failed(new BadRequestException('city must be a string'), admitted, false)).toEqual({
      content: [{ type: 'text', text: 'Tool forecast failed: city must be a string' }],
      isError: true,
    });
  });

  it('answers anything else with an internal error that says nothing, logged', () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const answer = thrownBy(() => answers.failed(new Error('pool exhausted'), admitted, false));
    expect(answer).toBeInstanceOf(JsonRpcError);
    expect(answer).toMatchObject({ code: -32603, message: 'Internal error' });
    expect(error).toHaveBeenCalledWith(
      'Tool forecast (Weather.forecast) failed; answered with an internal error',
      expect.stringContaining('pool exhausted'),
    );
  });

  it('answers a timeout with the tool’s timeoutMs, and another abort with its reason', () => {
    expect(answers.aborted(new McpCallAbortedError('timeout', 'x'), admitted)).toEqual({
      content: [{ type: 'text', text: 'Tool forecast timed out after 250 ms' }],
      isError: true,
    });
    expect(answers.aborted(new McpCallAbortedError('session-ended', 'MCP session ended (idle)'), admitted)).toEqual({
      content: [{ type: 'text', text: 'Tool forecast was aborted: MCP session ended (idle)' }],
      isError: true,
    });
  });

  // The timeout starts only once the guards admit: what stops a call before that (the end of its
  // session) must not tell the caller the tool exists.
  it('answers an abort before the guards admitted the caller as an unknown tool', () => {
    expect(
      answers.aborted(new McpCallAbortedError('session-ended', 'x'), { item: { kind: 'tool', name: 'secret' } }),
    ).toEqual({
      content: [{ type: 'text', text: 'Unknown tool: secret' }],
      isError: true,
    });
  });
});
