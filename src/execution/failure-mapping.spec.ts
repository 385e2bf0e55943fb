import { jest } from '@jest/globals';
import { BadRequestException, InternalServerErrorException, Logger, NotFoundException } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { CallStand } from './call-answers.js';
import { httpExceptionMessage, jsonRpcAnswers } from './failure-mapping.js';
import { thrownBy } from '../../test/utils/thrown.js';

const logger = new Logger('McpTest');
const answers = jsonRpcAnswers(logger);
const handler = { owner: 'Stations.read', target: () => Promise.reject(new Error('unused')) };

afterEach(() => jest.restoreAllMocks());

describe('jsonRpcAnswers.failed', () => {
  // The message a client reads names the kind of item: a template is not a plain resource.
  it.each([
    ['resourceTemplate', 'Resource template station'],
    ['resource', 'Resource station'],
    ['prompt', 'Prompt station'],
    ['completion', 'Completion of station'],
    ['tool', 'Tool station'],
  ] as const)('answers a 400 HttpException from a %s with -32602 "%s: <message>"', (kind, described) => {
    const stand: CallStand = { item: { kind, name: 'station', uri: 'weather://stations/x' }, handler };
    const error = thrownBy(() => answers.failed(new BadRequestException('bad station'), stand, false));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32602, message: `Invalid params: ${described}: bad station` });
  });

  it('passes JSON-RPC errors and aborts on as they are', () => {
    const stand: CallStand = { item: { kind: 'prompt', name: 'p' } };
    for (const failure of [
      new JsonRpcError(-32002, 'Resource not found', { uri: 'x://y' }),
      new McpCallAbortedError('timeout', 'late'),
    ]) {
      expect(thrownBy(() => answers.failed(failure, stand, false))).toBe(failure);
    }
  });

  it('answers anything else -32603 without details, its stack logged unless Nest logged it already', () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const stand: CallStand = { item: { kind: 'prompt', name: 'p' }, handler };
    const bug = new Error('the database is down');
    for (const reported of [false, true]) {
      const answer = thrownBy(() => answers.failed(bug, stand, reported));
      expect(answer).toMatchObject({ code: -32603, message: 'Internal error' });
      expect(JSON.stringify(answer)).not.toContain('database');
    }
    // A 5xx HttpException is the server's fault too.
    thrownBy(() => answers.failed(new InternalServerErrorException('pool exhausted'), stand, true));
    expect(error.mock.calls).toEqual([
      ['Prompt p (Stations.read) failed; answered with an internal error', bug.stack],
      ['Prompt p (Stations.read) failed; answered with an internal error'],
      // Intrinsic (HttpException) errors are not logged by Nest's handler: the stack goes to the log here.
      ['Prompt p (Stations.read) failed; answered with an internal error', expect.stringContaining('pool exhausted')],
    ]);
  });

  it('logs a thrown non-Error as it is, and names no owner before one admitted the caller', () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    thrownBy(() => answers.failed('just a string', { item: { kind: 'completion', name: 'c' } }, true));
    expect(error.mock.calls).toEqual([['Completion of c failed; answered with an internal error', 'just a string']]);
  });
});

describe('jsonRpcAnswers.aborted', () => {
  it('answers a timeout -32001 naming the item, and any other abort -32603', () => {
    const stand: CallStand = { item: { kind: 'resource', name: 'readme', uri: 'docs://readme' }, handler };
    expect(thrownBy(() => answers.aborted(new McpCallAbortedError('timeout', 'x'), stand))).toMatchObject({
      code: -32001,
      message: 'Resource readme timed out',
    });
    expect(thrownBy(() => answers.aborted(new McpCallAbortedError('session-ended', 'x'), stand))).toMatchObject({
      code: -32603,
    });
  });
});

describe('httpExceptionMessage', () => {
  it('reads the message a client may see: a string, a list (validation), or the exception’s own', () => {
    expect(httpExceptionMessage(new NotFoundException('no such city'))).toBe('no such city');
    expect(httpExceptionMessage(new BadRequestException(['city must be a string', 'days must be an integer']))).toBe(
      'city must be a string; days must be an integer',
    );
    expect(httpExceptionMessage(new BadRequestException({ reason: 'opaque' }))).toBe('Bad Request Exception');
  });
});
