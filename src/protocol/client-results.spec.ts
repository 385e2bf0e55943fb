import { createMessageResultProblem, elicitResultProblem, listRootsResultProblem } from './client-results.js';

describe('elicitResultProblem', () => {
  it.each([
    ['accept with content', { action: 'accept', content: { name: 'Ada', age: 36, ok: true, tags: ['a'] } }],
    ['accept without content (URL mode)', { action: 'accept' }],
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
    ['extra members', { action: 'cancel', _meta: { x: 1 } }],
  ])('accepts %s', (_label, value) => {
    expect(elicitResultProblem(value)).toBeUndefined();
  });

  it.each([
    ['null', null, 'the result is not an object'],
    ['an array', [{ action: 'accept' }], 'the result is not an object'],
    ['a string', 'accept', 'the result is not an object'],
    ['no action', {}, 'action must be accept, decline or cancel'],
    ['an unknown action', { action: 'ACCEPT' }, 'action must be accept, decline or cancel'],
    ['a non-string action', { action: 1 }, 'action must be accept, decline or cancel'],
    ['content that is a string', { action: 'accept', content: 'Ada' }, 'content must be an object'],
    ['content that is an array', { action: 'accept', content: ['Ada'] }, 'content must be an object'],
    ['content that is null', { action: 'accept', content: null }, 'content must be an object'],
  ])('refuses %s', (_label, value, problem) => {
    expect(elicitResultProblem(value)).toBe(problem);
  });
});

describe('createMessageResultProblem', () => {
  const text = { type: 'text', text: 'hi' };

  it.each([
    ['an assistant text block', { role: 'assistant', model: 'm-1', content: text }],
    ['a user role', { role: 'user', model: 'm-1', content: text }],
    ['several blocks', { role: 'assistant', model: 'm-1', content: [text, text] }],
    ['a stop reason', { role: 'assistant', model: 'm-1', content: text, stopReason: 'endTurn' }],
  ])('accepts %s', (_label, value) => {
    expect(createMessageResultProblem(value)).toBeUndefined();
  });

  it.each([
    ['null', null, 'the result is not an object'],
    ['an array', [], 'the result is not an object'],
    ['no role', { model: 'm', content: text }, 'role must be user or assistant'],
    ['a system role', { role: 'system', model: 'm', content: text }, 'role must be user or assistant'],
    ['no model', { role: 'assistant', content: text }, 'model must be a string'],
    ['a numeric model', { role: 'assistant', model: 4, content: text }, 'model must be a string'],
    ['no content', { role: 'assistant', model: 'm' }, 'content must be a block or blocks'],
    ['string content', { role: 'assistant', model: 'm', content: 'hi' }, 'content must be a block or blocks'],
    ['null content', { role: 'assistant', model: 'm', content: null }, 'content must be a block or blocks'],
  ])('refuses %s', (_label, value, problem) => {
    expect(createMessageResultProblem(value)).toBe(problem);
  });
});

describe('listRootsResultProblem', () => {
  it.each([
    ['no roots', { roots: [] }],
    ['roots with names', { roots: [{ uri: 'file:///a', name: 'A' }, { uri: 'file:///b' }] }],
  ])('accepts %s', (_label, value) => {
    expect(listRootsResultProblem(value)).toBeUndefined();
  });

  it.each([
    ['null', null, 'roots must be an array'],
    ['an array', [{ uri: 'file:///a' }], 'roots must be an array'],
    ['no roots', {}, 'roots must be an array'],
    ['roots as an object', { roots: { uri: 'file:///a' } }, 'roots must be an array'],
    ['a root without uri', { roots: [{ uri: 'file:///a' }, { name: 'B' }] }, 'roots[1] has no uri'],
    ['a root with a numeric uri', { roots: [{ uri: 1 }] }, 'roots[0] has no uri'],
    ['a root that is a string', { roots: ['file:///a'] }, 'roots[0] has no uri'],
    ['a null root', { roots: [{ uri: 'x' }, { uri: 'y' }, null] }, 'roots[2] has no uri'],
  ])('refuses %s', (_label, value, problem) => {
    expect(listRootsResultProblem(value)).toBe(problem);
  });
});
