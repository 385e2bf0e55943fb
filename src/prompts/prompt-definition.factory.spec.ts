import 'reflect-metadata';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpPromptArgumentOptions, McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { preparePrompt } from './prompt-definition.factory.js';
import { thrownBy } from '../../test/utils/thrown.js';

class ReviewArgs {
  @JSONSchema({ description: 'The code to review' })
  @IsString()
  @MaxLength(20)
  code!: string;

  @JSONSchema({ description: 'How strict to be', title: 'Strictness' })
  @IsOptional()
  @IsIn(['lenient', 'strict'])
  strictness?: string;

  @IsOptional()
  @IsString()
  language?: string;
}

const LABEL = '@McpPrompt() on Prompts.review';

function prepare(options: Partial<McpPromptOptions> & Record<string, unknown>, defaultName = 'review') {
  return preparePrompt(
    { description: 'Review code', ...options } as McpPromptOptions,
    defaultName,
    LABEL,
    new DtoJsonSchemaConverter(),
  );
}

function expectDefinitionError(build: () => unknown, message: string): void {
  const error = thrownBy(build);
  expect(error).toBeInstanceOf(McpDefinitionError);
  expect(error.message).toBe(message);
}

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('preparePrompt', () => {
  describe('the definition', () => {
    it('has the name and description only when nothing else is given: no arguments key', async () => {
      const prepared = prepare({});
      expect(prepared.definition).toEqual({ name: 'review', description: 'Review code' });
      expect(Object.keys(prepared.definition)).toEqual(['name', 'description']);
      expect(prepared.argumentNames).toEqual([]);
      expect('schema' in prepared).toBe(false);
      expect(await prepared.checkArguments({})).toEqual({ ok: true, value: {} });
    });

    it('defaults the name to the method name, and prefers an explicit one', () => {
      expect(prepare({}, 'codeReview').definition.name).toBe('codeReview');
      expect(prepare({ name: 'code_review.v2-beta' }, 'codeReview').definition.name).toBe('code_review.v2-beta');
    });

    it('copies title, icons and _meta, leaves timeoutMs and complete out, and freezes it all', () => {
      const options = {
        title: 'Code review',
        icons: [{ src: 'https://example.com/review.svg', sizes: ['any'] }],
        _meta: { 'example.com/tags': ['code'] },
        timeoutMs: 1000,
        complete: { x: ['a'] },
      };
      const prepared = prepare(options);
      expect(prepared.definition).toEqual({
        name: 'review',
        title: 'Code review',
        description: 'Review code',
        icons: [{ src: 'https://example.com/review.svg', sizes: ['any'] }],
        _meta: { 'example.com/tags': ['code'] },
      });
      expect(isDeepFrozen(prepared.definition)).toBe(true);
      expect(Object.isFrozen(prepared.argumentNames)).toBe(true);
      options._meta['example.com/tags'].push('mutated');
      expect(prepared.definition._meta).toEqual({ 'example.com/tags': ['code'] });
    });

    // The specification sets no character rule for prompt names: only usable ones are refused.
    it.each(['', '   ', 'n'.repeat(257), 'tab\there', 'nel\u0085'])('refuses the name %p', (name) => {
      expectDefinitionError(
        () => prepare({ name }),
        `${LABEL}: prompt name ${JSON.stringify(name)} is invalid; use 1 to 256 characters, no control characters`,
      );
    });

    it.each(['has space', 'a/b', 'émoji', 'n'.repeat(256)])('accepts the name %p', (name) => {
      expect(prepare({ name }).definition.name).toBe(name);
    });

    it('refuses a name that is not a string, and an invalid default name', () => {
      expectDefinitionError(
        () => prepare({ name: 5 as unknown as string }),
        `${LABEL}: prompt name 5 is invalid; use 1 to 256 characters, no control characters`,
      );
      expectDefinitionError(
        () => prepare({}, ''),
        `${LABEL}: prompt name "" is invalid; use 1 to 256 characters, no control characters`,
      );
    });

    it('accepts a name of 128 characters', () => {
      expect(prepare({ name: 'n'.repeat(128) }).definition.name).toBe('n'.repeat(128));
    });

    it.each([undefined, '', '   ', 42])('refuses the description %p', (description) => {
      expectDefinitionError(
        () => prepare({ description: description as string }),
        `${LABEL}: a description is required (users choose prompts by it)`,
      );
    });

    it.each([0, 1.5, 2 ** 31])('refuses the timeout %p', (timeoutMs) => {
      expectDefinitionError(
        () => prepare({ timeoutMs }),
        `${LABEL}: timeoutMs must be a whole number of milliseconds from 1 to ${2 ** 31 - 1}, got ${timeoutMs}`,
      );
    });

    it('refuses an icon without a src', () => {
      expectDefinitionError(
        () => prepare({ icons: [{ src: 'https://example.com/a.png' }, { src: '' }] }),
        `${LABEL}: icons[1] needs a src URI`,
      );
    });

    it.each([
      ['an object', { name: 'x' }],
      ['a string', 'code'],
      ['null', null],
    ])('refuses args that are %s', (_case, args) => {
      expectDefinitionError(
        () => prepare({ args: args as McpPromptOptions['args'] }),
        `${LABEL}: args must be a DTO class or a list of { name, description?, required? }`,
      );
    });
  });

  describe('arguments from a DTO', () => {
    it('lists each property: required unless @IsOptional(), with its description and title', () => {
      const prepared = prepare({ args: ReviewArgs });
      expect(prepared.definition.arguments).toEqual([
        { name: 'code', description: 'The code to review', required: true },
        { name: 'strictness', title: 'Strictness', description: 'How strict to be', required: false },
        { name: 'language', required: false },
      ]);
      expect(Object.keys(prepared.definition.arguments![2]!)).toEqual(['name', 'required']);
      expect(prepared.argumentNames).toEqual(['code', 'strictness', 'language']);
      expect(isDeepFrozen(prepared.definition)).toBe(true);
    });

    it('keeps the JSON Schema, its enums included (they feed completion)', () => {
      const schema = prepare({ args: ReviewArgs }).schema!;
      expect(schema.type).toBe('object');
      expect(schema.required).toEqual(['code']);
      expect((schema.properties as Record<string, { enum?: unknown }>).strictness!.enum).toEqual(['lenient', 'strict']);
    });

    it('checks arguments with the DTO: valid ones become an instance', async () => {
      const check = await prepare({ args: ReviewArgs }).checkArguments({ code: 'x = 1', strictness: 'strict' });
      expect(check).toEqual({
        ok: true,
        value: Object.assign(new ReviewArgs(), { code: 'x = 1', strictness: 'strict' }),
      });
      expect((check as { value: object }).value).toBeInstanceOf(ReviewArgs);
    });

    it('reports a missing required argument', async () => {
      expect(await prepare({ args: ReviewArgs }).checkArguments({})).toEqual({
        ok: false,
        problems: ['code: code must be shorter than or equal to 20 characters', 'code: code must be a string'],
      });
    });

    it('reports an unknown argument', async () => {
      expect(await prepare({ args: ReviewArgs }).checkArguments({ code: 'x', tone: 'warm' })).toEqual({
        ok: false,
        problems: ['tone: property tone should not exist'],
      });
    });

    it('reports the DTO validation problems', async () => {
      expect(
        await prepare({ args: ReviewArgs }).checkArguments({ code: 'x'.repeat(21), strictness: 'brutal' }),
      ).toEqual({
        ok: false,
        problems: [
          'code: code must be shorter than or equal to 20 characters',
          'strictness: strictness must be one of the following values: lenient, strict',
        ],
      });
    });

    it('advertises no arguments for a DTO without properties', () => {
      class NoArgs {}
      const prepared = prepare({ args: NoArgs });
      expect('arguments' in prepared.definition).toBe(false);
      expect(prepared.argumentNames).toEqual([]);
    });
  });

  describe('arguments from a list', () => {
    const list: McpPromptArgumentOptions[] = [
      { name: 'topic', description: 'What to write about', required: true },
      { name: 'tone', title: 'Tone' },
      { name: 'length', required: false },
    ];

    it('lists them in order, required only when required is true, optional fields absent', () => {
      const prepared = prepare({ args: list });
      expect(prepared.definition.arguments).toEqual([
        { name: 'topic', description: 'What to write about', required: true },
        { name: 'tone', title: 'Tone', required: false },
        { name: 'length', required: false },
      ]);
      expect(Object.keys(prepared.definition.arguments![1]!)).toEqual(['name', 'title', 'required']);
      expect(prepared.argumentNames).toEqual(['topic', 'tone', 'length']);
      expect('schema' in prepared).toBe(false);
    });

    it('is detached from the list given', () => {
      const given = [{ name: 'topic', description: 'About' }];
      const prepared = prepare({ args: given });
      given[0]!.description = 'Changed';
      expect(prepared.definition.arguments).toEqual([{ name: 'topic', description: 'About', required: false }]);
    });

    it('advertises no arguments for an empty list', () => {
      const prepared = prepare({ args: [] });
      expect('arguments' in prepared.definition).toBe(false);
    });

    it('accepts the declared arguments, the required ones present, and passes them through', async () => {
      const raw = { topic: 'cats', tone: 'warm' };
      const check = await prepare({ args: list }).checkArguments(raw);
      expect(check).toEqual({ ok: true, value: raw });
      expect((check as { value: unknown }).value).toBe(raw);
    });

    it('reports a missing required argument', async () => {
      expect(await prepare({ args: list }).checkArguments({ tone: 'warm' })).toEqual({
        ok: false,
        problems: ['topic: is required'],
      });
    });

    it('reports unknown arguments, after missing ones', async () => {
      expect(await prepare({ args: list }).checkArguments({ mood: 'x', style: 'y' })).toEqual({
        ok: false,
        problems: [
          'topic: is required',
          'mood: the prompt has no such argument',
          'style: the prompt has no such argument',
        ],
      });
    });

    it('without args, refuses any argument', async () => {
      expect(await prepare({}).checkArguments({ topic: 'cats' })).toEqual({
        ok: false,
        problems: ['topic: the prompt has no such argument'],
      });
    });

    // `raw[argument.name] === undefined` reads inherited members: a required argument named like an
    // Object.prototype member (`constructor`, `toString`) is never reported missing.
    it('reports a missing required argument named like an Object.prototype member', async () => {
      expect(await prepare({ args: [{ name: 'constructor', required: true }] }).checkArguments({})).toEqual({
        ok: false,
        problems: ['constructor: is required'],
      });
    });

    it.each([
      [[{ name: 'a' }, { description: 'no name' }], 'args[1] needs a name'],
      [[{ name: '' }], 'args[0] needs a name'],
      [[{ name: 7 }], 'args[0] needs a name'],
      [[null], 'args[0] needs a name'],
      [[{ name: 'a' }, { name: 'b' }, { name: 'a' }], 'argument a is declared twice'],
    ])('refuses the list %p', (args, reason) => {
      expectDefinitionError(() => prepare({ args: args as McpPromptArgumentOptions[] }), `${LABEL}: ${reason}`);
    });
  });
});
