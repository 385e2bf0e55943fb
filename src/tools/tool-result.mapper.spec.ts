import type { CallToolResult, ContentBlock } from '../protocol/mcp.types.js';
import { textResult, toCallToolResult } from './tool-result.mapper.js';

const blocks: ContentBlock[] = [
  { type: 'text', text: 'hello' },
  { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
  { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
  { type: 'resource', resource: { uri: 'file:///b.txt', text: 'b' } },
];

describe('textResult', () => {
  it('makes a single text block without isError', () => {
    const result = textResult('done');
    expect(result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(result).not.toHaveProperty('isError');
  });

  it('marks an error result with isError: true', () => {
    expect(textResult('bad input', true)).toEqual({ content: [{ type: 'text', text: 'bad input' }], isError: true });
  });
});

describe('toCallToolResult', () => {
  it('maps a string to one text block, unchanged', () => {
    expect(toCallToolResult('Sunny in Zürich ☀\nline 2')).toEqual({
      content: [{ type: 'text', text: 'Sunny in Zürich ☀\nline 2' }],
    });
    expect(toCallToolResult('')).toEqual({ content: [{ type: 'text', text: '' }] });
  });

  it('maps undefined (a method that returns nothing) to an empty result', () => {
    expect(toCallToolResult(undefined)).toEqual({ content: [] });
  });

  it('maps null, like undefined, to an empty result (documented on @McpTool)', () => {
    expect(toCallToolResult(null)).toEqual({ content: [] });
  });

  it('takes an array of content blocks of every kind as the content', () => {
    const result = toCallToolResult(blocks);
    expect(result).toEqual({ content: blocks });
    expect(result).not.toHaveProperty('isError');
  });

  it('sends an array that is not all content blocks as JSON text', () => {
    expect(toCallToolResult([{ type: 'text', text: 'a' }, { type: 'video' }])).toEqual({
      content: [{ type: 'text', text: '[{"type":"text","text":"a"},{"type":"video"}]' }],
    });
    expect(toCallToolResult([1, 2])).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
  });

  it('passes a CallToolResult through as it is, isError and structuredContent included', () => {
    const result: CallToolResult = {
      content: [{ type: 'text', text: '{"t":21}' }],
      structuredContent: { t: 21 },
      isError: false,
      _meta: { trace: 'x' },
    };
    expect(toCallToolResult(result)).toBe(result);
    const failure: CallToolResult = { content: [{ type: 'text', text: 'no such city' }], isError: true };
    expect(toCallToolResult(failure)).toBe(failure);
    const empty: CallToolResult = { content: [] };
    expect(toCallToolResult(empty)).toBe(empty);
  });

  it('sends an object whose content is not content blocks as JSON text', () => {
    const value = { content: ['just', 'strings'] };
    expect(toCallToolResult(value)).toEqual({ content: [{ type: 'text', text: JSON.stringify(value) }] });
  });

  it('sends other JSON values as their JSON text', () => {
    expect(toCallToolResult({ temperature: 21, unit: 'c' })).toEqual({
      content: [{ type: 'text', text: '{"temperature":21,"unit":"c"}' }],
    });
    expect(toCallToolResult(42)).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(toCallToolResult(0)).toEqual({ content: [{ type: 'text', text: '0' }] });
    expect(toCallToolResult(false)).toEqual({ content: [{ type: 'text', text: 'false' }] });
  });

  it('never marks a mapped value as an error', () => {
    for (const value of ['x', 1, { a: 1 }, blocks, undefined]) {
      expect(toCallToolResult(value).isError).toBeUndefined();
    }
  });
});
