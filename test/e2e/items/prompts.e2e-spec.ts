/**
 * Prompts over raw HTTP, for what a client library would hide: the exact JSON-RPC errors of
 * `prompts/get` and `completion/complete` (unknown prompts, invalid, non-string and undeclared
 * arguments, failing handlers, malformed results, timeouts), cancellation answered with nothing,
 * argument titles as sent, and the declarations that stop the application from starting.
 */
import { Injectable, type Type } from '@nestjs/common';
import { McpCompletion, McpModule, McpPrompt, McpResourceTemplate, type McpPromptOptions } from '../../../src/index.js';
import { PromptJournal, promptsApp, PROMPT_SECRET, TripArgs } from '../../fixtures/prompts.fixture.js';
import { definitionError } from '../../utils/bootstrap-failure.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { useRawApp, type RawSession } from '../../utils/raw-http-client.js';
import type { RpcMessage } from '../../utils/sse-reader.js';
import { SessionStore } from '../../internals/index.js';

describe('prompts over raw HTTP: exact errors, cancellation, bootstrap failures (e2e)', () => {
  const logger = new RecordingLogger();
  // Ending the sessions after each test aborts whatever a failed test left waiting.
  const app = useRawApp(promptsApp('prompts-e2e'), { logger });
  const { client } = app;
  let journal: PromptJournal;
  let sessions: SessionStore;

  beforeAll(() => {
    journal = app.get(PromptJournal);
    sessions = app.sessions;
  });

  beforeEach(() => {
    journal.reset();
    logger.entries.length = 0;
  });

  const initialize = (token = 'reader-token'): Promise<RawSession> =>
    client.initialize({ headers: { authorization: `Bearer ${token}` } });

  /** Sends one request and reads its only message. */
  async function request(session: RawSession, method: string, params: unknown, id: string | number = 1) {
    const res = await client.send(session, { jsonrpc: '2.0', id, method, params });
    expect(res.status).toBe(200);
    expect(res.messages).toHaveLength(1);
    return { message: res.messages[0]!, text: res.text };
  }

  const getPrompt = (session: RawSession, name: unknown, args?: unknown) =>
    request(session, 'prompts/get', args === undefined ? { name } : { name, arguments: args });

  /** The error response for request 1, exactly: code and message, and no data. */
  const error = (code: number, message: string): RpcMessage => ({ jsonrpc: '2.0', id: 1, error: { code, message } });

  describe('prompts/list', () => {
    test('sends argument titles and required flags as declared', async () => {
      const session = await initialize();
      const { message } = await request(session, 'prompts/list', {});
      const prompts = message.result!.prompts as Record<string, unknown>[];
      expect(prompts.find((prompt) => prompt.name === 'code_review')).toEqual({
        name: 'code_review',
        title: 'Code review',
        description: 'Reviews a piece of code',
        arguments: [
          { name: 'language', title: 'Language', description: 'The language of the code', required: true },
          { name: 'code', description: 'The code to review', required: true },
          { name: 'focus', description: 'What to pay attention to', required: false },
        ],
      });
      expect(message.result!.nextCursor).toBeUndefined();
    });
  });

  describe('prompts/get errors', () => {
    test('an unknown prompt is -32602 "Unknown prompt"', async () => {
      const session = await initialize();
      expect((await getPrompt(session, 'x')).message).toEqual(error(-32602, 'Invalid params: Unknown prompt: x'));
      expect((await getPrompt(session, 'x', { a: 'b' })).message).toEqual(
        error(-32602, 'Invalid params: Unknown prompt: x'),
      );
    });

    test.each<[string, unknown]>([
      ['no name', {}],
      ['an empty name', { name: '' }],
      ['a numeric name', { name: 7 }],
    ])('%s is -32602', async (_label, params) => {
      const session = await initialize();
      expect((await request(session, 'prompts/get', params)).message).toEqual(
        error(-32602, 'Invalid params: prompts/get needs a prompt name'),
      );
    });

    test.each<[string, string, Record<string, string>, string]>([
      [
        'a missing required DTO argument',
        'plan_trip',
        { city: 'Lisbon' },
        'mode: mode must be one of the following values: train, plane, bus, Boat',
      ],
      [
        'an argument outside its @IsIn values',
        'plan_trip',
        { city: 'Lisbon', mode: 'rocket' },
        'mode: mode must be one of the following values: train, plane, bus, Boat',
      ],
      [
        'an argument failing another DTO constraint',
        'plan_trip',
        { city: 'Lisbon', mode: 'bus', days: 'three' },
        'days: days must match /^\\d+$/ regular expression',
      ],
      [
        'an argument the DTO does not declare',
        'plan_trip',
        { city: 'Lisbon', mode: 'bus', budget: '100' },
        'budget: property budget should not exist',
      ],
      ['a missing required declared argument', 'code_review', { language: 'Go' }, 'code: is required'],
      [
        'an argument the list does not declare',
        'code_review',
        { language: 'Go', code: 'x', author: 'me' },
        'author: the prompt has no such argument',
      ],
      [
        'several problems at once',
        'code_review',
        { author: 'me' },
        'language: is required; code: is required; author: the prompt has no such argument',
      ],
      ['any argument of a prompt without arguments', 'crash', { a: 'b' }, 'a: the prompt has no such argument'],
    ])('%s is -32602 naming it, and the handler never runs', async (_label, name, args, problems) => {
      const session = await initialize();
      expect((await getPrompt(session, name, args)).message).toEqual(
        error(-32602, `Invalid params: invalid arguments for prompt ${name}: ${problems}`),
      );
      expect(journal.rendered.size).toBe(0);
    });

    test.each<[string, string, string]>([
      ['__proto__', 'plan_trip', '__proto__: property __proto__ should not exist'],
      ['constructor', 'plan_trip', 'constructor: property constructor should not exist'],
      ['__proto__', 'code_review', '__proto__: the prompt has no such argument'],
      ['constructor', 'code_review', 'constructor: the prompt has no such argument'],
    ])('an argument named %s is refused by %s like any undeclared one', async (key, name, problem) => {
      const session = await initialize();
      const valid: Record<string, string> =
        name === 'plan_trip' ? { city: 'Lisbon', mode: 'bus' } : { language: 'Go', code: 'x' };
      // Written as JSON text: an object literal would not carry an own __proto__ property.
      const res = await client.send(
        session,
        `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"${name}","arguments":${JSON.stringify(valid).slice(0, -1)},"${key}":"x"}}}`,
      );
      expect(res.messages).toEqual([error(-32602, `Invalid params: invalid arguments for prompt ${name}: ${problem}`)]);
      expect(journal.rendered.size).toBe(0);
    });

    test('a prompt its guard hides is unknown whatever the arguments: guards run before validation', async () => {
      const session = await initialize('reader-token');
      for (const args of [undefined, {}, { topic: 'budget' }, { nope: 'x' }]) {
        expect((await getPrompt(session, 'admin_briefing', args)).message).toEqual(
          error(-32602, 'Invalid params: Unknown prompt: admin_briefing'),
        );
      }
      const admin = await initialize('admin-token');
      expect((await getPrompt(admin, 'admin_briefing', {})).message).toEqual(
        error(-32602, 'Invalid params: invalid arguments for prompt admin_briefing: topic: is required'),
      );
      expect(journal.rendered.size).toBe(0);
    });

    test('a missing DTO argument with several constraints names each of them', async () => {
      const session = await initialize();
      const { message } = await getPrompt(session, 'plan_trip', { mode: 'bus' });
      expect(message.error!.code).toBe(-32602);
      const problems = message.error!.message.replace('Invalid params: invalid arguments for prompt plan_trip: ', '');
      expect(problems.split('; ').sort()).toEqual(
        ['city: city must be a string', 'city: city must be longer than or equal to 1 characters'].sort(),
      );
    });

    test.each<[string, unknown]>([
      ['a number', { city: 'Lisbon', mode: 'bus', days: 3 }],
      ['null', { city: null, mode: 'bus' }],
      ['an array', { city: ['Lisbon'], mode: 'bus' }],
      ['an object', { city: { name: 'Lisbon' }, mode: 'bus' }],
      ['a boolean', { city: 'Lisbon', mode: true }],
    ])('an argument value that is %s is -32602: arguments are strings', async (_label, args) => {
      const session = await initialize();
      expect((await getPrompt(session, 'plan_trip', args)).message).toEqual(
        error(-32602, 'Invalid params: arguments must be an object whose values are strings'),
      );
      expect(journal.rendered.size).toBe(0);
    });

    test('arguments that are not an object are -32602', async () => {
      const session = await initialize();
      for (const args of [['Lisbon'], 'city=Lisbon', 42]) {
        expect((await getPrompt(session, 'plan_trip', args)).message).toEqual(
          error(-32602, 'Invalid params: arguments must be an object whose values are strings'),
        );
      }
    });

    test('a handler throwing an Error is -32603 "Internal error": no detail reaches the client, it is logged', async () => {
      const session = await initialize();
      const { message, text } = await getPrompt(session, 'crash');
      expect(message).toEqual(error(-32603, 'Internal error'));
      expect(text).not.toContain(PROMPT_SECRET);
      expect(text).not.toContain('FailingPrompts');
      expect(journal.rendered.get('crash')).toBe(1);
      // Nest's exception handler logs the error itself; mcp42 adds which prompt failed.
      const logged = logger.at('error');
      expect(logged).toHaveLength(2);
      expect(logged.filter((line) => line.includes(PROMPT_SECRET))).toHaveLength(1);
      expect(
        logged.filter((line) =>
          line.startsWith('Prompt crash (FailingPrompts.crash) failed; answered with an internal error'),
        ),
      ).toHaveLength(1);
    });

    test('a handler throwing a 400 HttpException is -32602 with its message', async () => {
      const session = await initialize();
      expect((await getPrompt(session, 'refuse')).message).toEqual(
        error(-32602, 'Invalid params: Prompt refuse: the archive is closed'),
      );
      expect(logger.at('error')).toEqual([]);
    });

    test("a handler returning a malformed message (role 'system') is -32603, logged", async () => {
      const session = await initialize();
      const { message, text } = await getPrompt(session, 'system_role');
      expect(message).toEqual(error(-32603, 'Internal error'));
      expect(text).not.toContain('You are root');
      expect(journal.rendered.get('system_role')).toBe(1);
      expect(logger.at('error').some((line) => line.includes('role must be "user" or "assistant"'))).toBe(true);
    });

    test('a prompt running past its timeoutMs is -32001, and its signal aborts with kind timeout', async () => {
      const session = await initialize();
      const { message } = await getPrompt(session, 'slow_prompt');
      expect(message).toEqual(error(-32001, 'Prompt slow_prompt timed out'));
      expect(await journal.whenStopped('slow_prompt', 1)).toEqual({
        prompt: 'slow_prompt',
        requestId: 1,
        reason: 'timeout',
      });
    });

    test('a prompts/get cancelled with notifications/cancelled is never answered', async () => {
      const session = await initialize();
      const pending = client.post(session, {
        jsonrpc: '2.0',
        id: 'c1',
        method: 'prompts/get',
        params: { name: 'wait_for_cancel' },
      });
      await journal.whenStarted('wait_for_cancel', 'c1');

      const cancel = await client.post(session, {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'c1', reason: 'user pressed stop' },
      });
      await cancel.untilEnd();
      expect(cancel.status).toBe(202);
      expect(await journal.whenStopped('wait_for_cancel', 'c1')).toEqual({
        prompt: 'wait_for_cancel',
        requestId: 'c1',
        reason: 'cancelled',
      });

      const res = await pending;
      await res.untilEnd();
      expect(res.status).toBe(200);
      expect(res.messages).toEqual([]);
      expect(res.text).toBe('');
      expect(sessions.get(session.id)!.runningCalls).toBe(0);

      // The session goes on, and the request id may be used again.
      expect(
        (await request(session, 'prompts/get', { name: 'release_notes', arguments: { version: '1' } }, 'c1')).message,
      ).toMatchObject({ id: 'c1', result: { description: 'Release notes for 1' } });
    });
    test('a second prompts/get with the id of one still running is -32600, and the running one is unaffected', async () => {
      const session = await initialize();
      const first = client.post(session, {
        jsonrpc: '2.0',
        id: 'dup',
        method: 'prompts/get',
        params: { name: 'wait_for_cancel' },
      });
      await journal.whenStarted('wait_for_cancel', 'dup');
      expect((await request(session, 'prompts/get', { name: 'crash' }, 'dup')).message).toEqual({
        jsonrpc: '2.0',
        id: 'dup',
        error: { code: -32600, message: 'Invalid Request: request id "dup" is already in use by a running request' },
      });
      expect(journal.rendered.get('crash')).toBeUndefined();
      expect(sessions.get(session.id)!.isRunning('dup')).toBe(true);
      // Ending the session stops the first one, answered as an internal error (it was not the client's doing).
      sessions.get(session.id)!.end('deleted');
      expect(await journal.whenStopped('wait_for_cancel', 'dup')).toEqual({
        prompt: 'wait_for_cancel',
        requestId: 'dup',
        reason: 'session-ended',
      });
      const res = await first;
      await res.untilEnd();
      expect(res.messages).toEqual([{ jsonrpc: '2.0', id: 'dup', error: { code: -32603, message: 'Internal error' } }]);
    });
  });

  describe('completion/complete errors', () => {
    const completeParams = (context: unknown) => ({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'city', value: 'L' },
      context,
    });

    test('context.arguments that are not strings are -32602', async () => {
      const session = await initialize();
      for (const context of [{ arguments: { mode: 1 } }, { arguments: ['plane'] }, 'plane']) {
        expect((await request(session, 'completion/complete', completeParams(context))).message).toEqual(
          error(-32602, 'Invalid params: context.arguments must be an object whose values are strings'),
        );
      }
      expect(journal.completionRequests).toEqual([]);
    });

    test.each<[string, unknown, string]>([
      [
        'an unknown ref type',
        { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } },
        'ref.type must be "ref/prompt" or "ref/resource"',
      ],
      [
        'a ref/prompt without a name',
        { ref: { type: 'ref/prompt' }, argument: { name: 'a', value: '' } },
        'ref/prompt needs a prompt name',
      ],
      [
        'an argument without a value',
        { ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'city' } },
        'argument must be an object with string name and value',
      ],
      [
        'an unknown prompt',
        { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } },
        'Unknown prompt: x',
      ],
      [
        'an undeclared argument',
        { ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'country', value: '' } },
        'plan_trip has no argument country',
      ],
    ])('%s is -32602', async (_label, params, detail) => {
      const session = await initialize();
      expect((await request(session, 'completion/complete', params)).message).toEqual(
        error(-32602, `Invalid params: ${detail}`),
      );
    });

    test('the valid form of the same request is answered', async () => {
      const session = await initialize();
      expect(
        (await request(session, 'completion/complete', completeParams({ arguments: { mode: 'plane' } }))).message,
      ).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { completion: { values: ['Lisbon', 'London'], total: 2, hasMore: false } },
      });
    });
  });
});

describe('prompt and completion declarations that stop the application from starting (e2e)', () => {
  const mcp = () => McpModule.forRoot({ name: 'bad-prompts', version: '1.0.0' });

  @Injectable()
  class UnknownPromptCompletion {
    @McpPrompt({ name: 'real', description: 'Real', args: [{ name: 'a' }] })
    real(): string {
      return 'real';
    }

    @McpCompletion({ prompt: 'ghost', argument: 'a' })
    complete(): string[] {
      return [];
    }
  }

  @Injectable()
  class UnknownArgumentCompletion {
    @McpPrompt({ name: 'plan', description: 'Plan', args: TripArgs })
    plan(): string {
      return 'plan';
    }

    @McpCompletion({ prompt: 'plan', argument: 'country' })
    complete(): string[] {
      return [];
    }
  }

  @Injectable()
  class BothTargetsCompletion {
    @McpPrompt({ name: 'plan', description: 'Plan', args: [{ name: 'city' }] })
    plan(): string {
      return 'plan';
    }

    @McpResourceTemplate({ uriTemplate: 'weather://{city}', name: 'weather' })
    weather(): string {
      return 'sunny';
    }

    @McpCompletion({ prompt: 'plan', resourceTemplate: 'weather://{city}', argument: 'city' })
    complete(): string[] {
      return [];
    }
  }

  @Injectable()
  class NeitherTargetCompletion {
    @McpCompletion({ argument: 'city' })
    complete(): string[] {
      return [];
    }
  }

  @Injectable()
  class FirstTwin {
    @McpPrompt({ name: 'twin', description: 'One' })
    one(): string {
      return 'one';
    }
  }

  @Injectable()
  class SecondTwin {
    @McpPrompt({ name: 'twin', description: 'Two' })
    two(): string {
      return 'two';
    }
  }

  @Injectable()
  class UndescribedPrompt {
    @McpPrompt({ name: 'mute' } as McpPromptOptions)
    mute(): string {
      return 'mute';
    }
  }

  @Injectable()
  class BlankDescriptionPrompt {
    @McpPrompt({ name: 'blank', description: '   ' })
    blank(): string {
      return 'blank';
    }
  }

  @Injectable()
  class CompletedTwice {
    @McpPrompt({ name: 'pick', description: 'Pick', args: [{ name: 'colour' }], complete: { colour: ['red'] } })
    pick(): string {
      return 'pick';
    }

    @McpCompletion({ prompt: 'pick', argument: 'colour' })
    colours(): string[] {
      return ['blue'];
    }
  }

  @Injectable()
  class CompleteOptionForNoArgument {
    @McpPrompt({ name: 'pick', description: 'Pick', args: [{ name: 'colour' }], complete: { size: ['L'] } })
    pick(): string {
      return 'pick';
    }
  }

  test.each<[string, Type<unknown>[], string]>([
    [
      '@McpCompletion naming an unknown prompt',
      [UnknownPromptCompletion],
      '@McpCompletion() on UnknownPromptCompletion.complete: there is no prompt ghost',
    ],
    [
      '@McpCompletion naming an argument the prompt lacks',
      [UnknownArgumentCompletion],
      '@McpCompletion() on UnknownArgumentCompletion.complete: prompt plan has no argument country',
    ],
    [
      '@McpCompletion naming both a prompt and a resource template',
      [BothTargetsCompletion],
      '@McpCompletion() on BothTargetsCompletion.complete: name exactly one of prompt or resourceTemplate',
    ],
    [
      '@McpCompletion naming neither',
      [NeitherTargetCompletion],
      '@McpCompletion() on NeitherTargetCompletion.complete: name exactly one of prompt or resourceTemplate',
    ],
    [
      'two prompts with the same name',
      [FirstTwin, SecondTwin],
      'Prompt name "twin" is used twice: by FirstTwin.one and by SecondTwin.two',
    ],
    [
      'a prompt without a description',
      [UndescribedPrompt],
      '@McpPrompt() on UndescribedPrompt.mute: a description is required (users choose prompts by it)',
    ],
    [
      'a prompt with a blank description',
      [BlankDescriptionPrompt],
      '@McpPrompt() on BlankDescriptionPrompt.blank: a description is required (users choose prompts by it)',
    ],
    [
      '@McpCompletion for an argument the complete option completes already',
      [CompletedTwice],
      '@McpCompletion() on CompletedTwice.colours: argument colour of prompt pick has a completer already',
    ],
    [
      'a complete option naming no argument',
      [CompleteOptionForNoArgument],
      '@McpPrompt() on CompleteOptionForNoArgument.pick: complete.size names no argument (it has: colour)',
    ],
  ])('%s: McpDefinitionError at init, with a clear message', async (_label, providers, message) => {
    expect((await definitionError({ imports: [mcp()], providers })).message).toBe(message);
  });
});
