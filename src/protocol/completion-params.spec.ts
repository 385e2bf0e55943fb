import { MAX_COMPLETION_VALUES, readCompleteParams } from './completion-params.js';
import { JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import { MAX_URI_LENGTH } from './uri.js';

const refusal = (detail: string) => ({ code: -32602, message: `Invalid params: ${detail}` });
const BAD_REF = refusal('ref must be an object');
const BAD_TYPE = refusal('ref.type must be "ref/prompt" or "ref/resource"');
const NO_PROMPT_NAME = refusal('ref/prompt needs a prompt name');
const NO_TEMPLATE = refusal('ref/resource needs the uri of a resource template');
const BAD_ARGUMENT = refusal('argument must be an object with string name and value');
const BAD_CONTEXT = refusal('context.arguments must be an object whose values are strings');

const promptRef = { type: 'ref/prompt', name: 'greet' };
const templateRef = { type: 'ref/resource', uri: 'weather://{city}/{day}' };
const argument = { name: 'city', value: 'Pa' };

function refusalOf(params: JsonRpcParams): unknown {
  try {
    readCompleteParams(params);
  } catch (error) {
    if (error instanceof JsonRpcError) return error.toErrorObject();
    throw error;
  }
  throw new Error(`expected a refusal for ${JSON.stringify(params)}`);
}

describe('MAX_COMPLETION_VALUES', () => {
  it('is the specification’s 100', () => {
    expect(MAX_COMPLETION_VALUES).toBe(100);
  });
});

describe('readCompleteParams: acceptance', () => {
  it('returns the params themselves for a prompt reference', () => {
    const params = { ref: promptRef, argument, _meta: { progressToken: 1 } };
    expect(readCompleteParams(params)).toBe(params);
    expect(readCompleteParams(params)).toStrictEqual({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'city', value: 'Pa' },
      _meta: { progressToken: 1 },
    });
  });

  it.each([
    ['a resource template reference', { ref: templateRef, argument }],
    ['an empty value', { ref: promptRef, argument: { name: 'city', value: '' } }],
    ['an empty argument name (the registry judges it)', { ref: promptRef, argument: { name: '', value: 'x' } }],
    ['a non-ASCII value', { ref: promptRef, argument: { name: 'city', value: 'Zür' } }],
    ['an empty context', { ref: promptRef, argument, context: {} }],
    ['context.arguments undefined', { ref: promptRef, argument, context: { arguments: undefined } }],
    ['empty context.arguments', { ref: promptRef, argument, context: { arguments: {} } }],
    ['string context.arguments', { ref: templateRef, argument, context: { arguments: { day: 'monday', x: '' } } }],
    ['extra context members', { ref: promptRef, argument, context: { other: 1 } }],
    ['a template reference whose uri is not a URI yet', { ref: { type: 'ref/resource', uri: 'x' }, argument }],
    ['a template uri with whitespace', { ref: { type: 'ref/resource', uri: 'file:///{a} b' }, argument }],
  ])('accepts %s', (_label, params) => {
    expect(readCompleteParams(params as JsonRpcParams)).toBe(params);
  });

  it('accepts a template uri of exactly MAX_URI_LENGTH characters', () => {
    const uri = 'file:///{path}' + 'a'.repeat(MAX_URI_LENGTH - 14);
    expect(uri).toHaveLength(MAX_URI_LENGTH);
    const params = { ref: { type: 'ref/resource', uri }, argument };
    expect(readCompleteParams(params)).toBe(params);
  });
});

describe('readCompleteParams: refusals', () => {
  it.each([
    ['no ref', { argument }],
    ['a null ref', { ref: null, argument }],
    ['an array ref', { ref: [promptRef], argument }],
    ['a string ref', { ref: 'ref/prompt', argument }],
  ])('refuses %s', (_label, params) => {
    expect(refusalOf(params as JsonRpcParams)).toStrictEqual(BAD_REF);
  });

  it.each([
    ['no type', { name: 'greet' }],
    ['an unknown type', { type: 'ref/tool', name: 'greet' }],
    ['the legacy type name', { type: 'ref/resource-template', uri: 'x://{a}' }],
    ['a differently cased type', { type: 'REF/PROMPT', name: 'greet' }],
  ])('refuses a ref with %s', (_label, ref) => {
    expect(refusalOf({ ref, argument })).toStrictEqual(BAD_TYPE);
  });

  it.each([
    ['no name', { type: 'ref/prompt' }],
    ['an empty name', { type: 'ref/prompt', name: '' }],
    ['a numeric name', { type: 'ref/prompt', name: 5 }],
    ['a uri instead of a name', { type: 'ref/prompt', uri: 'x://{a}' }],
  ])('refuses a prompt ref with %s', (_label, ref) => {
    expect(refusalOf({ ref, argument })).toStrictEqual(NO_PROMPT_NAME);
  });

  it.each([
    ['no uri', { type: 'ref/resource' }],
    ['an empty uri', { type: 'ref/resource', uri: '' }],
    ['a null uri', { type: 'ref/resource', uri: null }],
    ['a name instead of a uri', { type: 'ref/resource', name: 'weather' }],
    ['a uri one past MAX_URI_LENGTH', { type: 'ref/resource', uri: 'file:///' + 'a'.repeat(MAX_URI_LENGTH - 7) }],
  ])('refuses a resource ref with %s', (_label, ref) => {
    expect(refusalOf({ ref, argument })).toStrictEqual(NO_TEMPLATE);
  });

  it.each([
    ['no argument', {}],
    ['a null argument', { argument: null }],
    ['an array argument', { argument: ['city', 'Pa'] }],
    ['an argument without value', { argument: { name: 'city' } }],
    ['an argument without name', { argument: { value: 'Pa' } }],
    ['a numeric value', { argument: { name: 'count', value: 3 } }],
    ['a null value', { argument: { name: 'city', value: null } }],
    ['a numeric name', { argument: { name: 1, value: 'Pa' } }],
  ])('refuses %s', (_label, rest) => {
    expect(refusalOf({ ref: promptRef, ...rest } as JsonRpcParams)).toStrictEqual(BAD_ARGUMENT);
  });

  it.each([
    ['a null context', null],
    ['an array context', [{ arguments: {} }]],
    ['a string context', 'city=Paris'],
    ['null context.arguments', { arguments: null }],
    ['array context.arguments', { arguments: ['Paris'] }],
    ['a numeric value in context.arguments', { arguments: { day: 1 } }],
    ['a boolean value in context.arguments', { arguments: { day: 'monday', early: true } }],
    ['a null value in context.arguments', { arguments: { day: null } }],
    ['an object value in context.arguments', { arguments: { day: { n: 'monday' } } }],
  ])('refuses %s', (_label, context) => {
    expect(refusalOf({ ref: promptRef, argument, context } as JsonRpcParams)).toStrictEqual(BAD_CONTEXT);
  });

  it('checks ref before argument, and argument before context', () => {
    expect(refusalOf({ ref: { type: 'x' }, argument: null, context: null })).toStrictEqual(BAD_TYPE);
    expect(refusalOf({ ref: promptRef, argument: null, context: null })).toStrictEqual(BAD_ARGUMENT);
  });
});
