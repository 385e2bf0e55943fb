import { PromptMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ContentBlock, PromptMessage } from '../protocol/mcp.types.js';
import { toGetPromptResult } from '../prompts/prompt-result.mapper.js';
import { embeddedText, image, resourceLink, text } from './content.builders.js';
import * as barrel from './index.js';
import { assistantMessage, userMessage } from './prompt-messages.js';

/** A message must pass the reference SDK's schema and come out of the prompt result mapper unchanged. */
function expectAcceptedByClients(message: PromptMessage): void {
  expect(PromptMessageSchema.safeParse(message).success).toBe(true);
  expect(toGetPromptResult([message], undefined)).toStrictEqual({ messages: [message] });
  expect(JSON.parse(JSON.stringify(message))).toStrictEqual(message);
}

const blocks: ReadonlyArray<[string, ContentBlock]> = [
  ['a text block', text('Hello', { audience: ['user'] })],
  ['an image block', image(new Uint8Array([1, 2, 3]), 'image/png')],
  ['an embedded resource', embeddedText('file:///notes.md', '# Notes', { mimeType: 'text/markdown' })],
  ['a resource link', resourceLink({ uri: 'file:///report.pdf', name: 'report.pdf' })],
];

describe.each([
  ['userMessage', userMessage, 'user'],
  ['assistantMessage', assistantMessage, 'assistant'],
] as const)('%s', (_name, build, role) => {
  it(`turns a string into one ${role} text block`, () => {
    const message = build('Summarise the report above.');
    expect(message).toStrictEqual({ role, content: { type: 'text', text: 'Summarise the report above.' } });
    expectAcceptedByClients(message);
  });

  it('keeps an empty string as an empty text block', () => {
    expect(build('')).toStrictEqual({ role, content: { type: 'text', text: '' } });
  });

  it('keeps non-ASCII and multi-line text exactly', () => {
    const value = 'Zürich 🙂\nline two\r\n\ttabbed';
    expect(build(value)).toStrictEqual({ role, content: { type: 'text', text: value } });
  });

  it.each(blocks)('carries %s as is', (_label, block) => {
    const message = build(block);
    expect(message.role).toBe(role);
    expect(message.content).toBe(block);
    expect(Object.keys(message)).toEqual(['role', 'content']);
    expectAcceptedByClients(message);
  });

  it('returns a new message on every call', () => {
    expect(build('a')).not.toBe(build('a'));
  });
});

describe('content barrel', () => {
  it('exports both message helpers', () => {
    expect(barrel.userMessage).toBe(userMessage);
    expect(barrel.assistantMessage).toBe(assistantMessage);
  });
});
