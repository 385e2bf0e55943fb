import { JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import { readResourceUriParams } from './resource-params.js';
import { MAX_URI_LENGTH } from './uri.js';

const REFUSAL = 'Invalid params: uri must be an absolute URI of at most 8192 characters';

function refusalOf(params: JsonRpcParams): JsonRpcError {
  try {
    readResourceUriParams(params);
  } catch (error) {
    if (error instanceof JsonRpcError) return error;
    throw error;
  }
  throw new Error(`expected a refusal for ${JSON.stringify(params)}`);
}

describe('readResourceUriParams', () => {
  it('returns the params themselves, _meta included', () => {
    const params = { uri: 'file:///notes/today.md', _meta: { progressToken: 7 } };
    const read = readResourceUriParams(params);
    expect(read).toBe(params);
    expect(read).toStrictEqual({ uri: 'file:///notes/today.md', _meta: { progressToken: 7 } });
  });

  it.each([
    'weather://paris',
    'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66',
    'https://пример.рф/документ',
    'file:///文書/報告.txt',
  ])('accepts %s', (uri) => {
    expect(readResourceUriParams({ uri }).uri).toBe(uri);
  });

  it('accepts a uri of exactly MAX_URI_LENGTH characters', () => {
    const uri = 'file:///' + 'a'.repeat(MAX_URI_LENGTH - 8);
    expect(uri).toHaveLength(MAX_URI_LENGTH);
    expect(readResourceUriParams({ uri }).uri).toBe(uri);
  });

  it('refuses a uri of MAX_URI_LENGTH + 1 characters', () => {
    const uri = 'file:///' + 'a'.repeat(MAX_URI_LENGTH - 7);
    expect(refusalOf({ uri }).toErrorObject()).toStrictEqual({ code: -32602, message: REFUSAL });
  });

  it.each([
    ['no uri', {}],
    ['an undefined uri', { uri: undefined }],
    ['a null uri', { uri: null }],
    ['a numeric uri', { uri: 42 }],
    ['an array uri', { uri: ['file:///x'] }],
    ['an object uri', { uri: { href: 'file:///x' } }],
    ['an empty uri', { uri: '' }],
    ['a uri without scheme', { uri: '/etc/hosts' }],
    ['a relative uri', { uri: 'notes/today.md' }],
    ['a uri with a space', { uri: 'file:///my notes.md' }],
    ['a uri with a leading space', { uri: ' file:///x' }],
    ['a uri with a newline', { uri: 'file:///x\ny' }],
    ['a uri with a NUL', { uri: 'file:///x\u0000' }],
    ['a uri with a DEL', { uri: 'file:///x\u007f' }],
    ['the uri under another name', { url: 'file:///x' }],
  ])('refuses %s with -32602', (_label, params) => {
    const error = refusalOf(params as JsonRpcParams);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(REFUSAL);
    expect(error.data).toBeUndefined();
  });
});
