import 'reflect-metadata';
import { jest } from '@jest/globals';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { Subscription } from 'rxjs';
import type { ItemCompleter } from '../catalogue/completer.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpInvocation } from '../execution/mcp-invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { McpSchemas } from '../schemas/mcp-schemas.js';
import { McpPromptRegistry } from './prompt.registry.js';
import type { RegisteredPrompt } from './registered-prompt.interface.js';

class SummaryArgs {
  @JSONSchema({ description: 'The text to summarise' })
  @IsString()
  text!: string;

  @IsOptional()
  @IsIn(['short', 'long'])
  length?: string;
}

const noopTarget: PipelineTarget = {
  canActivate: () => Promise.resolve(true),
  execute: () => Promise.resolve('prompt'),
  reportsErrors: false,
};
const target = (): PipelineTarget => noopTarget;

const handlerCompleter: ItemCompleter = { kind: 'handler', handler: { owner: 'Completions.length', target } };

const request = (argument: string, value: string): McpCompletionRequest => ({ argument, value, arguments: {} });

/** Runs a registered prompt's handler past its (runtime, empty) pipeline, as the renderer does. */
async function render(prompt: RegisteredPrompt, args: object, context: McpContext): Promise<unknown> {
  const pipeline = await prompt.target({ url: '/mcp' });
  const invocation = { phase: 'call', kind: 'prompt', name: prompt.definition.name, arguments: args, context };
  return pipeline.execute([{ url: '/mcp' }, undefined, undefined, invocation as unknown as McpInvocation]);
}

function thrown(build: () => unknown): Error {
  try {
    build();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

function expectDefinitionError(build: () => unknown, message: string): void {
  const error = thrown(build);
  expect(error).toBeInstanceOf(McpDefinitionError);
  expect(error.message).toBe(message);
}

async function served(registry: McpPromptRegistry): Promise<string[]> {
  const { page, nextCursor } = await registry.page(undefined, 1_000, () => true);
  expect(nextCursor).toBeUndefined();
  return page.map((prompt) => prompt.definition.name);
}

describe('McpPromptRegistry', () => {
  it('defines a prompt from decorator options and finds it by name', () => {
    const registry = new McpPromptRegistry();
    const defined = registry.define(
      { description: 'Summarise a text', args: SummaryArgs, timeoutMs: 500 },
      'summarise',
      'Prompts.summarise',
      target,
    );
    expect(defined.definition).toEqual({
      name: 'summarise',
      description: 'Summarise a text',
      arguments: [
        { name: 'text', description: 'The text to summarise', required: true },
        { name: 'length', required: false },
      ],
    });
    expect(defined.argumentNames).toEqual(['text', 'length']);
    expect(defined.owner).toBe('Prompts.summarise');
    expect(defined.timeoutMs).toBe(500);
    expect(defined.target).toBe(target);
    expect(registry.size).toBe(1);
    expect(registry.has('summarise')).toBe(true);
    expect(registry.get('summarise')).toBe(defined);
    expect(registry.has('other')).toBe(false);
    expect(registry.get('other')).toBeUndefined();
  });

  it('labels definition errors with the decorator and owner, and registers nothing', () => {
    const registry = new McpPromptRegistry();
    expectDefinitionError(
      () => registry.define({ description: '' }, 'summarise', 'Prompts.summarise', target),
      '@McpPrompt() on Prompts.summarise: a description is required (users choose prompts by it)',
    );
    expect(registry.size).toBe(0);
  });

  it('refuses a name used twice, naming both owners, and keeps the first', () => {
    const registry = new McpPromptRegistry();
    const first = registry.define({ description: 'A' }, 'summarise', 'Prompts.summarise', target);
    expectDefinitionError(
      () => registry.define({ description: 'B' }, 'summarise', 'Other.summarise', target),
      'Prompt name "summarise" is used twice: by Prompts.summarise and by Other.summarise',
    );
    expectDefinitionError(
      () => registry.addPrompt({ name: 'summarise', description: 'C' }, () => 'c'),
      'Prompt name "summarise" is used twice: by Prompts.summarise and by runtime prompt summarise',
    );
    expect(registry.size).toBe(1);
    expect(registry.get('summarise')).toBe(first);
  });

  it('checks arguments with the prepared checker', async () => {
    const registry = new McpPromptRegistry();
    const defined = registry.define({ description: 'S', args: SummaryArgs }, 'summarise', 'P.s', target);
    expect(await defined.checkArguments({ text: 'abc' })).toEqual({
      ok: true,
      value: Object.assign(new SummaryArgs(), { text: 'abc' }),
    });
    expect(await defined.checkArguments({ text: 'abc', length: 'medium' })).toEqual({
      ok: false,
      problems: ['length: length must be one of the following values: short, long'],
    });
  });

  it('uses the schemas it is given (one converter per application)', () => {
    const schemas = new McpSchemas();
    const toSchema = jest.spyOn(schemas.converter, 'toSchema');
    new McpPromptRegistry(schemas).define({ description: 'S', args: SummaryArgs }, 's', 'P.s', target);
    expect(toSchema).toHaveBeenCalledWith(SummaryArgs);
    jest.restoreAllMocks();
  });

  describe('addPrompt', () => {
    it('serves a handler called with the arguments and the context', async () => {
      const registry = new McpPromptRegistry();
      const calls: unknown[][] = [];
      registry.addPrompt(
        { name: 'greet', description: 'Greet someone', args: [{ name: 'who', required: true }] },
        (args: { who: string }, context) => {
          calls.push([args, context]);
          return `Hello ${args.who}`;
        },
      );
      const prompt = registry.get('greet')!;
      expect(prompt.owner).toBe('runtime prompt greet');
      expect(prompt.definition).toEqual({
        name: 'greet',
        description: 'Greet someone',
        arguments: [{ name: 'who', required: true }],
      });
      const context = { sessionId: 's1' } as McpContext;
      expect(await render(prompt, { who: 'Ada' }, context)).toBe('Hello Ada');
      expect(calls).toEqual([[{ who: 'Ada' }, context]]);
      expect(calls[0]![1]).toBe(context);
    });

    it('refuses a handler that is not a function', () => {
      const registry = new McpPromptRegistry();
      expectDefinitionError(
        () => registry.addPrompt({ name: 'greet', description: 'G' }, 'Hello' as unknown as () => string),
        'addPrompt(greet): handler must be a function',
      );
      expect(registry.has('greet')).toBe(false);
    });

    it('labels definition errors as a runtime prompt', () => {
      const registry = new McpPromptRegistry();
      expectDefinitionError(
        () => registry.addPrompt({ name: 'bad\u0000name', description: 'G' }, () => 'x'),
        'runtime prompt bad\u0000name: prompt name "bad\\u0000name" is invalid; use 1 to 256 characters, no control characters',
      );
    });
  });

  describe('removePrompt', () => {
    it('stops serving a prompt, says whether there was one, and frees the name', async () => {
      const registry = new McpPromptRegistry();
      registry.addPrompt({ name: 'a', description: 'A' }, () => 'a');
      registry.addPrompt({ name: 'b', description: 'B' }, () => 'b');
      expect(registry.removePrompt('a')).toBe(true);
      expect(registry.has('a')).toBe(false);
      expect(registry.get('a')).toBeUndefined();
      expect(registry.size).toBe(1);
      expect(await served(registry)).toEqual(['b']);
      expect(registry.removePrompt('a')).toBe(false);
      expect(registry.removePrompt('never')).toBe(false);
      expect(() => registry.addPrompt({ name: 'a', description: 'A again' }, () => 'a')).not.toThrow();
      expect(await served(registry)).toEqual(['b', 'a']);
    });
  });

  describe('page', () => {
    it('pages the served prompts in registration order, hiding those the caller may not see', async () => {
      const registry = new McpPromptRegistry();
      for (const name of ['a', 'b', 'c', 'd']) registry.addPrompt({ name, description: name }, () => name);
      const visible = (prompt: RegisteredPrompt) => prompt.definition.name !== 'b';
      const first = await registry.page(undefined, 2, visible);
      expect(first.page.map((prompt) => prompt.definition.name)).toEqual(['a', 'c']);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await registry.page(first.nextCursor, 2, visible);
      expect(second.page.map((prompt) => prompt.definition.name)).toEqual(['d']);
      expect(second.nextCursor).toBeUndefined();
    });
  });

  describe('completers', () => {
    it('builds the completers of the complete option: functions and lists', async () => {
      const registry = new McpPromptRegistry();
      const byFunction = jest.fn(() => ['fn']);
      const defined = registry.define(
        {
          description: 'S',
          args: [{ name: 'language' }, { name: 'tone' }],
          complete: { language: ['TypeScript', 'Rust', 'Ruby'], tone: byFunction },
        },
        's',
        'P.s',
        target,
      );
      const language = defined.completers.get('language') as Extract<ItemCompleter, { kind: 'function' }>;
      expect(language.owner).toBe('P.s');
      expect(await language.complete(request('language', 'ru'), {} as McpContext)).toEqual(['Rust', 'Ruby']);
      const tone = defined.completers.get('tone') as Extract<ItemCompleter, { kind: 'function' }>;
      expect(tone.complete).toBe(byFunction);
    });

    it('refuses a complete entry for an argument the prompt does not have', () => {
      const registry = new McpPromptRegistry();
      expectDefinitionError(
        () => registry.define({ description: 'S', args: [{ name: 'a' }], complete: { b: ['x'] } }, 's', 'P.s', target),
        '@McpPrompt() on P.s: complete.b names no argument (it has: a)',
      );
      expectDefinitionError(
        () => registry.define({ description: 'S', complete: { b: ['x'] } }, 's', 'P.s', target),
        '@McpPrompt() on P.s: complete.b names no argument (it has: none)',
      );
      expect(registry.size).toBe(0);
    });

    it('refuses a complete entry that is neither a function nor a list of strings', () => {
      const registry = new McpPromptRegistry();
      expectDefinitionError(
        () =>
          registry.define(
            { description: 'S', args: [{ name: 'a' }], complete: { a: [1, 2] as unknown as string[] } },
            's',
            'P.s',
            target,
          ),
        '@McpPrompt() on P.s: complete.a must be a function or a list of strings',
      );
    });

    it('derives a completer from an enum of the DTO, which one @McpCompletion() method may replace', async () => {
      const registry = new McpPromptRegistry();
      const defined = registry.define({ description: 'S', args: SummaryArgs }, 's', 'P.s', target);
      const auto = defined.completers.get('length') as Extract<ItemCompleter, { kind: 'function' }>;
      expect(auto.auto).toBe(true);
      expect(await auto.complete(request('length', 'SH'), {} as McpContext)).toEqual(['short']);
      expect(defined.completers.has('text')).toBe(false);

      registry.addCompleter('s', 'length', handlerCompleter, '@McpCompletion() on C.length');
      expect(defined.completers.get('length')).toBe(handlerCompleter);
      expectDefinitionError(
        () => registry.addCompleter('s', 'length', handlerCompleter, '@McpCompletion() on D.length'),
        '@McpCompletion() on D.length: argument length of prompt s has a completer already',
      );
    });

    it('adds a completer for an argument that has none', () => {
      const registry = new McpPromptRegistry();
      const defined = registry.define({ description: 'S', args: SummaryArgs }, 's', 'P.s', target);
      registry.addCompleter('s', 'text', handlerCompleter, '@McpCompletion() on C.text');
      expect(defined.completers.get('text')).toBe(handlerCompleter);
    });

    it('refuses a completer for an unknown prompt, an unknown argument, or one with an explicit completer', () => {
      const registry = new McpPromptRegistry();
      registry.define({ description: 'S', args: [{ name: 'a' }], complete: { a: () => ['x'] } }, 's', 'P.s', target);
      const label = '@McpCompletion() on C.x';
      expectDefinitionError(
        () => registry.addCompleter('missing', 'a', handlerCompleter, label),
        `${label}: there is no prompt missing`,
      );
      expectDefinitionError(
        () => registry.addCompleter('s', 'b', handlerCompleter, label),
        `${label}: prompt s has no argument b`,
      );
      expectDefinitionError(
        () => registry.addCompleter('s', 'a', handlerCompleter, label),
        `${label}: argument a of prompt s has a completer already`,
      );
    });

    it('refuses a completer for a removed prompt', () => {
      const registry = new McpPromptRegistry();
      registry.define({ description: 'S', args: [{ name: 'a' }] }, 's', 'P.s', target);
      registry.removePrompt('s');
      expectDefinitionError(() => registry.addCompleter('s', 'a', handlerCompleter, 'L'), 'L: there is no prompt s');
    });
  });

  describe('changes', () => {
    let subscription: Subscription | undefined;

    afterEach(() => {
      subscription?.unsubscribe();
      subscription = undefined;
    });

    function watch(registry: McpPromptRegistry): () => number {
      let emitted = 0;
      subscription = registry.changes.subscribe(() => emitted++);
      return () => emitted;
    }

    it('emits once for a burst of changes, after the burst, and again for a later one', async () => {
      const registry = new McpPromptRegistry();
      const count = watch(registry);
      registry.addPrompt({ name: 'a', description: 'A' }, () => 'a');
      registry.define({ description: 'B' }, 'b', 'P.b', target);
      registry.removePrompt('a');
      expect(count()).toBe(0);
      await Promise.resolve();
      expect(count()).toBe(1);
      registry.removePrompt('b');
      await Promise.resolve();
      expect(count()).toBe(2);
    });

    it('does not emit for what changes nothing', async () => {
      const registry = new McpPromptRegistry();
      registry.addPrompt({ name: 'a', description: 'A' }, () => 'a');
      await Promise.resolve();
      const count = watch(registry);
      expect(() => registry.addPrompt({ name: 'a', description: 'A' }, () => 'a')).toThrow(McpDefinitionError);
      expect(() => registry.addPrompt({ name: 'b', description: '' }, () => 'b')).toThrow(McpDefinitionError);
      registry.removePrompt('missing');
      await Promise.resolve();
      expect(count()).toBe(0);
    });
  });
});

describe('McpPromptRegistry: disablePrompt / enablePrompt', () => {
  it('hides a prompt from pages and lookups until enabled again, with one change per flip', async () => {
    const registry = new McpPromptRegistry();
    registry.addPrompt({ name: 'greet', description: 'Greets' }, () => 'hello');
    registry.addPrompt({ name: 'part', description: 'Parts' }, () => 'bye');
    await Promise.resolve();
    let changes = 0;
    const subscription = registry.changes.subscribe(() => changes++);
    expect(registry.disablePrompt('greet')).toBe(true);
    expect(registry.disablePrompt('greet')).toBe(true);
    await Promise.resolve();
    expect(changes).toBe(1);
    expect(registry.has('greet')).toBe(false);
    expect(registry.get('greet')).toBeUndefined();
    expect(await served(registry)).toEqual(['part']);
    expect(registry.enablePrompt('greet')).toBe(true);
    await Promise.resolve();
    expect(changes).toBe(2);
    expect(registry.has('greet')).toBe(true);
    expect(await served(registry)).toEqual(['greet', 'part']);
    expect(registry.disablePrompt('nope')).toBe(false);
    expect(registry.enablePrompt('nope')).toBe(false);
    subscription.unsubscribe();
  });
});
