import { embeddedText, image, resourceLink, text } from '../content/content.builders.js';
import { assistantMessage, userMessage } from '../content/prompt-messages.js';
import { toGetPromptResult } from './prompt-result.mapper.js';

const DESCRIPTION = 'Review code';
const SHAPES = 'a prompt returns strings, content blocks, { role, content } messages, or { messages }';

describe('toGetPromptResult', () => {
  describe('one value', () => {
    it('maps a string to one user text message, with the prompt description', () => {
      expect(toGetPromptResult('Review this', DESCRIPTION)).toEqual({
        description: DESCRIPTION,
        messages: [{ role: 'user', content: { type: 'text', text: 'Review this' } }],
      });
    });

    it('has no description key when the prompt has none', () => {
      const result = toGetPromptResult('Review this', undefined);
      expect(result).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Review this' } }] });
      expect(Object.keys(result)).toEqual(['messages']);
    });

    it('maps an empty string to an empty user text message', () => {
      expect(toGetPromptResult('', undefined)).toEqual({
        messages: [{ role: 'user', content: { type: 'text', text: '' } }],
      });
    });

    it.each([
      ['text', text('hi', { priority: 1 })],
      ['image', image(new Uint8Array([1, 2, 3]), 'image/png')],
      ['audio', { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
      ['resource link', resourceLink({ uri: 'docs://readme', name: 'readme' })],
      ['embedded resource', embeddedText('docs://readme', '# Readme', { mimeType: 'text/markdown' })],
    ])('maps a %s block to one user message holding it', (_type, block) => {
      expect(toGetPromptResult(block, undefined)).toEqual({ messages: [{ role: 'user', content: block }] });
    });

    it('keeps a message as it is, dropping fields other than role and content', () => {
      const message = { role: 'assistant', content: text('Sure.'), extra: 1 };
      expect(toGetPromptResult(message, DESCRIPTION)).toEqual({
        description: DESCRIPTION,
        messages: [{ role: 'assistant', content: { type: 'text', text: 'Sure.' } }],
      });
    });

    it('keeps what userMessage() and assistantMessage() build', () => {
      expect(toGetPromptResult(userMessage('Hello'), undefined)).toEqual({
        messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }],
      });
      expect(toGetPromptResult(assistantMessage(image('AAAA', 'image/png')), undefined)).toEqual({
        messages: [{ role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }],
      });
    });
  });

  describe('an array', () => {
    it('maps strings, blocks and messages, in order', () => {
      const link = resourceLink({ uri: 'docs://a', name: 'a' });
      expect(toGetPromptResult(['First', link, assistantMessage('Answer'), userMessage('Again')], DESCRIPTION)).toEqual(
        {
          description: DESCRIPTION,
          messages: [
            { role: 'user', content: { type: 'text', text: 'First' } },
            { role: 'user', content: link },
            { role: 'assistant', content: { type: 'text', text: 'Answer' } },
            { role: 'user', content: { type: 'text', text: 'Again' } },
          ],
        },
      );
    });

    it('maps an empty array to no messages', () => {
      expect(toGetPromptResult([], DESCRIPTION)).toEqual({ description: DESCRIPTION, messages: [] });
    });

    it('names the index of a bad item', () => {
      expect(() => toGetPromptResult(['ok', 'ok', 3], undefined)).toThrow(new TypeError(`message 2: ${SHAPES}`));
      expect(() => toGetPromptResult(['ok', { role: 'system', content: text('x') }], undefined)).toThrow(
        new TypeError('message 1: role must be "user" or "assistant"'),
      );
    });

    it('refuses a nested array', () => {
      expect(() => toGetPromptResult([['a']], undefined)).toThrow(new TypeError(`message 0: ${SHAPES}`));
    });
  });

  describe('a result', () => {
    it('maps { messages } and adds the prompt description when it has none', () => {
      expect(toGetPromptResult({ messages: ['Hi', assistantMessage('Hello')] }, DESCRIPTION)).toEqual({
        description: DESCRIPTION,
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hi' } },
          { role: 'assistant', content: { type: 'text', text: 'Hello' } },
        ],
      });
    });

    it('keeps its own description, even an empty one', () => {
      expect(toGetPromptResult({ messages: [], description: 'Own' }, DESCRIPTION)).toEqual({
        description: 'Own',
        messages: [],
      });
      expect(toGetPromptResult({ messages: [], description: '' }, DESCRIPTION)).toEqual({
        description: '',
        messages: [],
      });
    });

    it('has no description when neither it nor the prompt has one', () => {
      const result = toGetPromptResult({ messages: ['x'] }, undefined);
      expect(Object.keys(result)).toEqual(['messages']);
    });

    it('keeps _meta', () => {
      expect(toGetPromptResult({ messages: ['x'], _meta: { trace: 'abc' } }, undefined)).toEqual({
        messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
        _meta: { trace: 'abc' },
      });
    });

    it('does not change the object returned', () => {
      const returned = { messages: ['x'] };
      toGetPromptResult(returned, DESCRIPTION);
      expect(returned).toEqual({ messages: ['x'] });
    });

    it('checks its messages, naming the index', () => {
      expect(() => toGetPromptResult({ messages: ['x', { role: 'user', content: 'text' }] }, undefined)).toThrow(
        new TypeError('message 1: content must be one well-formed content block (text, image, audio, resource)'),
      );
    });
  });

  describe('what cannot be a prompt', () => {
    it.each([
      ['a number', 42],
      ['undefined', undefined],
      ['null', null],
      ['a boolean', true],
      ['a plain object', { text: 'no type' }],
      ['a malformed block', { type: 'image', data: 1, mimeType: 'image/png' }],
      ['an unknown block type', { type: 'video', url: 'x' }],
      ['{ messages } that is not a list', { messages: 'Hi' }],
    ])('refuses %s', (_case, value) => {
      expect(() => toGetPromptResult(value, DESCRIPTION)).toThrow(new TypeError(`message 0: ${SHAPES}`));
    });

    it.each([
      ['system', { role: 'system', content: text('x') }],
      ['missing', { role: undefined, content: text('x') }],
    ])('refuses a message whose role is %s', (_case, message) => {
      expect(() => toGetPromptResult(message, undefined)).toThrow(
        new TypeError('message 0: role must be "user" or "assistant"'),
      );
    });

    it.each([
      ['a string', 'Hello'],
      ['a list of blocks', [text('a'), text('b')]],
      ['a malformed block', { type: 'text', text: 5 }],
      ['missing', undefined],
    ])('refuses a message whose content is %s', (_case, content) => {
      expect(() => toGetPromptResult({ role: 'user', content }, undefined)).toThrow(
        new TypeError('message 0: content must be one well-formed content block (text, image, audio, resource)'),
      );
    });
  });
});

describe('toGetPromptResult: _meta', () => {
  // A client's schema check rejects a whole result over a malformed _meta: the prompt's bug is caught here.
  it.each([
    ['a string', 'x'],
    ['an array', ['x']],
    ['null', null],
  ])('refuses a result whose _meta is %s', (_label, meta) => {
    expect(() => toGetPromptResult({ messages: ['hi'], _meta: meta }, undefined)).toThrow(
      new TypeError('_meta must be an object'),
    );
  });

  it('keeps an object _meta', () => {
    expect(toGetPromptResult({ messages: ['hi'], _meta: { trace: 7 } }, 'Says hi')).toStrictEqual({
      description: 'Says hi',
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      _meta: { trace: 7 },
    });
  });
});
