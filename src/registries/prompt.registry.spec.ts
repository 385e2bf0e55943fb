import 'reflect-metadata';
import { jest } from '@jest/globals';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { Subscription } from 'rxjs';
import type { ItemCompleter } from '../items/completer.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { Invocation } from '../execution/invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { Schemas } from '../schemas/schemas.js';
import type { RegisteredPrompt } from '../prompts/registered-prompt.interface.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { McpPromptRegistry } from './prompt.registry.js';
import { thrownBy } from '../../test/utils/thrown.js';

/** A registry over a fresh store, and the store, as the module wires them. */
function prompts(schemas = new Schemas()): { registry: McpPromptRegistry; store: PromptStore } {
  const store = new PromptStore(schemas);
  return { registry: new McpPromptRegistry(store), store };
}

class SummaryArgs {
  @JSONSchema({ description: 'The text to summarise' })
  @IsString()
  text!: string;

  @IsOptional()
  @IsIn(['short', 'long'])
  length?: string;
}

const noopTarget: PipelineTarget = {
  guarded: false,
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
  return pipeline.execute([{ url: '/mcp' }, undefined, undefined, invocation as unknown as Invocation]);
}

function expectDefinitionError(build: () => unknown, message: string): void {
  const error = thrownBy(build);
  expect(error).toBeInstanceOf(McpDefinitionError);
  expect(error.message).toBe(message);
}

async function served(store: PromptStore): Promise<string[]> {
  const { page, nextCursor } = await store.page(undefined, 1_000, () => true);
  expect(nextCursor).toBeUndefined();
  return page.map((prompt) => prompt.definition.name);
}

describe('McpPromptRegistry', () => {
  it('defines a prompt from decorator options and finds it by name', () => {
    const { registry, store } = prompts();
    const defined = store.define(
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
    expect(registry.isEnabled('summarise')).toBe(true);
    expect(store.get('summarise')).toBe(defined);
    expect(registry.isEnabled('other')).toBe(false);
    expect(store.get('other')).toBeUndefined();
  });

  it('labels definition errors with the decorator and owner, and registers nothing', () => {
    const { registry, store } = prompts();
    expectDefinitionError(
      () => store.define({ description: '' }, 'summarise', 'Prompts.summarise', target),
      '@McpPrompt() on Prompts.summarise: a description is required (users choose prompts by it)',
    );
    expect(registry.size).toBe(0);
  });

  it('refuses a name used twice, naming both owners, and keeps the first', () => {
    const { registry, store } = prompts();
    const first = store.define({ description: 'A' }, 'summarise', 'Prompts.summarise', target);
    expectDefinitionError(
      () => store.define({ description: 'B' }, 'summarise', 'Other.summarise', target),
      'Prompt name "summarise" is used twice: by Prompts.summarise and by Other.summarise',
    );
    expectDefinitionError(
      () => registry.add({ name: 'summarise', description: 'C' }, () => 'c'),
      'Prompt name "summarise" is used twice: by Prompts.summarise and by runtime prompt summarise',
    );
    expect(registry.size).toBe(1);
    expect(store.get('summarise')).toBe(first);
  });

  it('checks arguments with the prepared checker', async () => {
    const { store } = prompts();
    const defined = store.define({ description: 'S', args: SummaryArgs }, 'summarise', 'P.s', target);
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
    const schemas = new Schemas();
    const toSchema = jest.spyOn(schemas.converter, 'toSchema');
    prompts(schemas).store.define({ description: 'S', args: SummaryArgs }, 's', 'P.s', target);
    expect(toSchema).toHaveBeenCalledWith(SummaryArgs, '@McpPrompt() on P.s (args)');
    jest.restoreAllMocks();
  });

  describe('add', () => {
    it('serves a handler called with the arguments and the context', async () => {
      const { registry, store } = prompts();
      const calls: unknown[][] = [];
      registry.add(
        { name: 'greet', description: 'Greet someone', args: [{ name: 'who', required: true }] },
        (args: { who: string }, context) => {
          calls.push([args, context]);
          return `Hello ${args.who}`;
        },
      );
      const prompt = store.get('greet')!;
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
      const { registry } = prompts();
      expectDefinitionError(
        () => registry.add({ name: 'greet', description: 'G' }, 'Hello' as unknown as () => string),
        'McpPromptRegistry.add(greet): handler must be a function',
      );
      expect(registry.isEnabled('greet')).toBe(false);
    });

    it('labels definition errors as a runtime prompt', () => {
      const { registry } = prompts();
      expectDefinitionError(
        () => registry.add({ name: 'bad\u0000name', description: 'G' }, () => 'x'),
        'runtime prompt bad\u0000name: prompt name "bad\\u0000name" is invalid; use 1 to 256 characters, no control characters',
      );
    });
  });

  describe('remove', () => {
    it('stops serving a prompt, says whether there was one, and frees the name', async () => {
      const { registry, store } = prompts();
      registry.add({ name: 'a', description: 'A' }, () => 'a');
      registry.add({ name: 'b', description: 'B' }, () => 'b');
      expect(registry.remove('a')).toBe(true);
      expect(registry.isEnabled('a')).toBe(false);
      expect(store.get('a')).toBeUndefined();
      expect(registry.size).toBe(1);
      expect(await served(store)).toEqual(['b']);
      expect(registry.remove('a')).toBe(false);
      expect(registry.remove('never')).toBe(false);
      expect(() => registry.add({ name: 'a', description: 'A again' }, () => 'a')).not.toThrow();
      expect(await served(store)).toEqual(['b', 'a']);
    });
  });

  describe('page', () => {
    it('pages the served prompts in registration order, hiding those the caller may not see', async () => {
      const { registry, store } = prompts();
      for (const name of ['a', 'b', 'c', 'd']) registry.add({ name, description: name }, () => name);
      const visible = (prompt: RegisteredPrompt) => prompt.definition.name !== 'b';
      const first = await store.page(undefined, 2, visible);
      expect(first.page.map((prompt) => prompt.definition.name)).toEqual(['a', 'c']);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await store.page(first.nextCursor, 2, visible);
      expect(second.page.map((prompt) => prompt.definition.name)).toEqual(['d']);
      expect(second.nextCursor).toBeUndefined();
    });
  });

  describe('completers', () => {
    it('builds the completers of the complete option: functions and lists', async () => {
      const { store } = prompts();
      const byFunction = jest.fn(() => ['fn']);
      const defined = store.define(
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
      const { registry, store } = prompts();
      expectDefinitionError(
        () => store.define({ description: 'S', args: [{ name: 'a' }], complete: { b: ['x'] } }, 's', 'P.s', target),
        '@McpPrompt() on P.s: complete.b names no argument (it has: a)',
      );
      expectDefinitionError(
        () => store.define({ description: 'S', complete: { b: ['x'] } }, 's', 'P.s', target),
        '@McpPrompt() on P.s: complete.b names no argument (it has: none)',
      );
      expect(registry.size).toBe(0);
    });

    it('refuses a complete entry that is neither a function nor a list of strings', () => {
      const { store } = prompts();
      expectDefinitionError(
        () =>
          store.define(
            { description: 'S', args: [{ name: 'a' }], complete: { a: [1, 2] as unknown as string[] } },
            's',
            'P.s',
            target,
          ),
        '@McpPrompt() on P.s: complete.a must be a function or a list of strings',
      );
    });

    it('derives a completer from an enum of the DTO, which one @McpCompletion() method may replace', async () => {
      const { store } = prompts();
      const defined = store.define({ description: 'S', args: SummaryArgs }, 's', 'P.s', target);
      const auto = defined.completers.get('length') as Extract<ItemCompleter, { kind: 'function' }>;
      expect(auto.auto).toBe(true);
      expect(await auto.complete(request('length', 'SH'), {} as McpContext)).toEqual(['short']);
      expect(defined.completers.has('text')).toBe(false);

      store.addCompleter('s', 'length', handlerCompleter, '@McpCompletion() on C.length');
      expect(defined.completers.get('length')).toBe(handlerCompleter);
      expectDefinitionError(
        () => store.addCompleter('s', 'length', handlerCompleter, '@McpCompletion() on D.length'),
        '@McpCompletion() on D.length: argument length of prompt s has a completer already',
      );
    });

    it('adds a completer for an argument that has none', () => {
      const { store } = prompts();
      const defined = store.define({ description: 'S', args: SummaryArgs }, 's', 'P.s', target);
      store.addCompleter('s', 'text', handlerCompleter, '@McpCompletion() on C.text');
      expect(defined.completers.get('text')).toBe(handlerCompleter);
    });

    it('refuses a completer for an unknown prompt, an unknown argument, or one with an explicit completer', () => {
      const { store } = prompts();
      store.define({ description: 'S', args: [{ name: 'a' }], complete: { a: () => ['x'] } }, 's', 'P.s', target);
      const label = '@McpCompletion() on C.x';
      expectDefinitionError(
        () => store.addCompleter('missing', 'a', handlerCompleter, label),
        `${label}: there is no prompt missing`,
      );
      expectDefinitionError(
        () => store.addCompleter('s', 'b', handlerCompleter, label),
        `${label}: prompt s has no argument b`,
      );
      expectDefinitionError(
        () => store.addCompleter('s', 'a', handlerCompleter, label),
        `${label}: argument a of prompt s has a completer already`,
      );
    });

    it('refuses a completer for a removed prompt', () => {
      const { registry, store } = prompts();
      store.define({ description: 'S', args: [{ name: 'a' }] }, 's', 'P.s', target);
      registry.remove('s');
      expectDefinitionError(() => store.addCompleter('s', 'a', handlerCompleter, 'L'), 'L: there is no prompt s');
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
      const { registry, store } = prompts();
      const count = watch(registry);
      registry.add({ name: 'a', description: 'A' }, () => 'a');
      store.define({ description: 'B' }, 'b', 'P.b', target);
      registry.remove('a');
      expect(count()).toBe(0);
      await Promise.resolve();
      expect(count()).toBe(1);
      registry.remove('b');
      await Promise.resolve();
      expect(count()).toBe(2);
    });

    it('does not emit for what changes nothing', async () => {
      const { registry } = prompts();
      registry.add({ name: 'a', description: 'A' }, () => 'a');
      await Promise.resolve();
      const count = watch(registry);
      expect(() => registry.add({ name: 'a', description: 'A' }, () => 'a')).toThrow(McpDefinitionError);
      expect(() => registry.add({ name: 'b', description: '' }, () => 'b')).toThrow(McpDefinitionError);
      registry.remove('missing');
      await Promise.resolve();
      expect(count()).toBe(0);
    });
  });
});

describe('McpPromptRegistry: disable / enable', () => {
  it('hides a prompt from pages and lookups until enabled again, with one change per flip', async () => {
    const { registry, store } = prompts();
    registry.add({ name: 'greet', description: 'Greets' }, () => 'hello');
    registry.add({ name: 'part', description: 'Parts' }, () => 'bye');
    await Promise.resolve();
    let changes = 0;
    const subscription = registry.changes.subscribe(() => changes++);
    expect(registry.disable('greet')).toBe(true);
    expect(registry.disable('greet')).toBe(true);
    await Promise.resolve();
    expect(changes).toBe(1);
    expect(registry.isEnabled('greet')).toBe(false);
    expect(store.get('greet')).toBeUndefined();
    expect(await served(store)).toEqual(['part']);
    expect(registry.enable('greet')).toBe(true);
    await Promise.resolve();
    expect(changes).toBe(2);
    expect(registry.isEnabled('greet')).toBe(true);
    expect(await served(store)).toEqual(['greet', 'part']);
    expect(registry.disable('nope')).toBe(false);
    expect(registry.enable('nope')).toBe(false);
    subscription.unsubscribe();
  });
});

describe('McpPromptRegistry.get, list and the names of 0.3', () => {
  it('get and list give the definitions of registered prompts, disabled ones included', () => {
    const { registry } = prompts();
    registry.add({ name: 'greet', description: 'Greets' }, () => 'hello');
    registry.add({ name: 'part', description: 'Parts' }, () => 'bye');
    registry.disable('greet');
    expect(registry.has('greet')).toBe(true);
    expect(registry.isEnabled('greet')).toBe(false);
    expect(registry.get('greet')).toMatchObject({ name: 'greet', description: 'Greets' });
    expect(registry.list().map((prompt) => prompt.name)).toEqual(['greet', 'part']);
    expect(registry.get('nope')).toBeUndefined();
  });
});
