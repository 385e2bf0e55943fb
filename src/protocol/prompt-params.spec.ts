import { JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import { readGetPromptParams } from './prompt-params.js';

const NO_NAME = { code: -32602, message: 'Invalid params: prompts/get needs a prompt name' };
const BAD_ARGUMENTS = { code: -32602, message: 'Invalid params: arguments must be an object whose values are strings' };

function refusalOf(params: JsonRpcParams): JsonRpcError {
  try {
    readGetPromptParams(params);
  } catch (error) {
    if (error instanceof JsonRpcError) return error;
    throw error;
  }
  throw new Error(`expected a refusal for ${JSON.stringify(params)}`);
}

describe('readGetPromptParams', () => {
  it('returns the params themselves', () => {
    const params = { name: 'summarise', arguments: { topic: 'rust' }, _meta: { progressToken: 'p1' } };
    const read = readGetPromptParams(params);
    expect(read).toBe(params);
    expect(read).toStrictEqual({ name: 'summarise', arguments: { topic: 'rust' }, _meta: { progressToken: 'p1' } });
  });

  it.each([
    ['no arguments', { name: 'greet' }],
    ['undefined arguments', { name: 'greet', arguments: undefined }],
    ['empty arguments', { name: 'greet', arguments: {} }],
    ['empty-string values', { name: 'greet', arguments: { who: '' } }],
    ['non-ASCII values', { name: 'greet', arguments: { who: 'Zoë', city: '東京' } }],
    ['a name outside the tool-name rule (the registry judges it)', { name: 'no such prompt!' }],
  ])('accepts %s', (_label, params) => {
    expect(readGetPromptParams(params as JsonRpcParams)).toBe(params);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['a null name', { name: null }],
    ['a numeric name', { name: 1 }],
    ['an array name', { name: ['greet'] }],
    ['an object name', { name: { value: 'greet' } }],
  ])('refuses %s', (_label, params) => {
    expect(refusalOf(params as JsonRpcParams).toErrorObject()).toStrictEqual(NO_NAME);
  });

  it('checks the name before the arguments', () => {
    expect(refusalOf({ arguments: [] }).toErrorObject()).toStrictEqual(NO_NAME);
  });

  it.each([
    ['null arguments', null],
    ['array arguments', ['a']],
    ['empty array arguments', []],
    ['string arguments', 'who=me'],
    ['numeric arguments', 3],
    ['a numeric value', { count: 3 }],
    ['a boolean value', { loud: true }],
    ['a null value', { who: null }],
    ['an array value', { who: ['a', 'b'] }],
    ['an object value', { who: { first: 'Ada' } }],
    ['one bad value among strings', { a: 'x', b: 'y', c: 0 }],
  ])('refuses %s', (_label, args) => {
    const error = refusalOf({ name: 'greet', arguments: args } as JsonRpcParams);
    expect(error.toErrorObject()).toStrictEqual(BAD_ARGUMENTS);
  });
});
