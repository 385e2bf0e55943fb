import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import type { Caller } from '../interfaces/caller.interface.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { StatelessCaller } from './stateless-caller.js';

/** Least severe first: written out, not derived from the code under test. */
const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

const envelope: RequestEnvelope = {
  protocolVersion: '2026-07-28',
  clientCapabilities: { elicitation: { form: {} } },
  clientInfo: { name: 'client', version: '1.0.0' },
};

describe('StatelessCaller: who calls', () => {
  it('says what the envelope says, and has no session', () => {
    const caller = new StatelessCaller(envelope, 'alice');
    expect(caller.era).toBe('modern');
    expect(caller.session).toBeUndefined();
    expect(caller.protocolVersion).toBe('2026-07-28');
    expect(caller.clientInfo).toStrictEqual({ name: 'client', version: '1.0.0' });
    expect(caller.clientCapabilities).toBe(envelope.clientCapabilities);
    expect(caller.principal).toBe('alice');
  });

  it('has no clientInfo when the request had none', () => {
    const caller = new StatelessCaller({ protocolVersion: '2026-07-28', clientCapabilities: {} }, undefined);
    expect(caller.clientInfo).toBeUndefined();
    expect(caller.clientCapabilities).toStrictEqual({});
  });

  it('seals cursors to the principal, or to anonymous callers as one', () => {
    expect(new StatelessCaller(envelope, 'alice').cursorScope).toBe('principal:alice');
    expect(new StatelessCaller(envelope, 'bob').cursorScope).toBe('principal:bob');
    expect(new StatelessCaller(envelope, undefined).cursorScope).toBe('anonymous');
  });

  it('keeps a principal named "anonymous" apart from anonymous callers', () => {
    expect(new StatelessCaller(envelope, 'anonymous').cursorScope).not.toBe(
      new StatelessCaller(envelope, undefined).cursorScope,
    );
  });
});

describe('StatelessCaller.wantsLog', () => {
  it('wants no log at all without a logLevel in the request', () => {
    const caller = new StatelessCaller(envelope, undefined);
    expect(LEVELS.filter((level) => caller.wantsLog(level))).toStrictEqual([]);
  });

  it.each([
    ['debug', LEVELS],
    ['warning', ['warning', 'error', 'critical', 'alert', 'emergency']],
    ['emergency', ['emergency']],
  ] as const)('with logLevel %s, wants %p', (threshold, wanted) => {
    const caller = new StatelessCaller({ ...envelope, logLevel: threshold }, undefined);
    expect(LEVELS.filter((level) => caller.wantsLog(level))).toStrictEqual(wanted);
  });
});

describe('StatelessCaller: calls', () => {
  /** The caller as the call lifecycle sees it (the interface passes request ids). */
  const asCaller = (caller: StatelessCaller): Caller => caller;
  it('never reports a call as running: ids of independent requests say nothing', () => {
    const caller = new StatelessCaller(envelope, undefined);
    asCaller(caller).beginCall(1);
    expect(asCaller(caller).isRunning(1)).toBe(false);
    expect(asCaller(caller).isRunning('1')).toBe(false);
  });

  it('hands out a fresh controller per call', () => {
    const caller = new StatelessCaller(envelope, undefined);
    const first = asCaller(caller).beginCall(1);
    const second = asCaller(caller).beginCall(1);
    expect(first).not.toBe(second);
    expect(first.signal.aborted).toBe(false);
  });

  it('aborts every begun call with the reason', () => {
    const caller = new StatelessCaller(envelope, undefined);
    const first = asCaller(caller).beginCall(1);
    const second = asCaller(caller).beginCall(2);
    const reason = new McpCallAbortedError('cancelled', 'the client closed the response stream');
    caller.abort(reason);
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(true);
    expect(first.signal.reason).toBe(reason);
    expect(second.signal.reason).toBe(reason);
  });

  it('does not abort calls that ended', () => {
    const caller = new StatelessCaller(envelope, undefined);
    const ended = asCaller(caller).beginCall(1);
    const running = asCaller(caller).beginCall(2);
    asCaller(caller).endCall(1, ended);
    caller.abort(new McpCallAbortedError('cancelled', 'closed'));
    expect(ended.signal.aborted).toBe(false);
    expect(running.signal.aborted).toBe(true);
  });

  it('does not abort, on a later abort, calls begun after the first one', () => {
    const caller = new StatelessCaller(envelope, undefined);
    const first = asCaller(caller).beginCall(1);
    const firstReason = new McpCallAbortedError('cancelled', 'first');
    caller.abort(firstReason);
    const later = asCaller(caller).beginCall(2);
    expect(later.signal.aborted).toBe(false);
    caller.abort(new McpCallAbortedError('session-ended', 'second'));
    expect(later.signal.aborted).toBe(true);
    expect(first.signal.reason).toBe(firstReason);
  });

  it('aborts nothing when nothing runs', () => {
    expect(() => new StatelessCaller(envelope, undefined).abort(new Error('x'))).not.toThrow();
  });
});
