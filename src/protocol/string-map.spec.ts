import { isStringMap } from './string-map.js';

describe('isStringMap', () => {
  it.each([
    ['an empty object', {}],
    ['one string', { city: 'Paris' }],
    ['empty strings', { a: '', b: '' }],
    ['non-ASCII keys and values', { ville: 'Zürich', 都市: '東京' }],
    ['an object without prototype', Object.assign(Object.create(null) as object, { a: 'x' })],
  ])('accepts %s', (_label, value) => {
    expect(isStringMap(value)).toBe(true);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'a=b'],
    ['a number', 1],
    ['a boolean', true],
    ['an empty array', []],
    ['an array of strings', ['a', 'b']],
    ['a number value', { a: 'x', n: 1 }],
    ['a boolean value', { flag: false }],
    ['a null value', { a: null }],
    ['an undefined value', { a: undefined }],
    ['an array value', { tags: ['a'] }],
    ['an object value', { nested: { a: 'b' } }],
    ['a String object value', { a: new String('x') }],
  ])('refuses %s', (_label, value) => {
    expect(isStringMap(value)).toBe(false);
  });

  it('narrows the type to a record of strings', () => {
    const value: unknown = { a: 'b' };
    if (!isStringMap(value)) throw new Error('expected a string map');
    const narrowed: Record<string, string> = value;
    expect(narrowed.a.toUpperCase()).toBe('B');
  });
});
