import { NO_COMPLETIONS, toCompleteResult } from './completion-result.js';

const TYPE_ERROR = 'a completer must return a list of strings, or { values: string[], total?, hasMore? }';

/** `count` distinct candidates: v0, v1, ... */
const candidates = (count: number) => Array.from({ length: count }, (_, index) => `v${index}`);

describe('NO_COMPLETIONS', () => {
  it('is exactly { completion: { values: [] } }', () => {
    expect(NO_COMPLETIONS).toStrictEqual({ completion: { values: [] } });
    expect(JSON.stringify(NO_COMPLETIONS)).toBe('{"completion":{"values":[]}}');
  });

  it('is frozen all the way down', () => {
    expect(Object.isFrozen(NO_COMPLETIONS)).toBe(true);
    expect(Object.isFrozen(NO_COMPLETIONS.completion)).toBe(true);
    expect(Object.isFrozen(NO_COMPLETIONS.completion.values)).toBe(true);
    expect(() => (NO_COMPLETIONS.completion.values as string[]).push('x')).toThrow(TypeError);
  });
});

describe('toCompleteResult: a list', () => {
  it('sends every value with total = its length and hasMore false', () => {
    expect(toCompleteResult(['Paris', 'Passau'])).toStrictEqual({
      completion: { values: ['Paris', 'Passau'], total: 2, hasMore: false },
    });
  });

  it('sends an empty list as total 0, hasMore false', () => {
    expect(toCompleteResult([])).toStrictEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it('sends exactly 100 values uncut', () => {
    const values = candidates(100);
    expect(toCompleteResult(values)).toStrictEqual({ completion: { values, total: 100, hasMore: false } });
  });

  it('cuts 101 values to the first 100, total 101, hasMore true', () => {
    const values = candidates(101);
    expect(toCompleteResult(values)).toStrictEqual({
      completion: { values: values.slice(0, 100), total: 101, hasMore: true },
    });
  });

  it('cuts a long list to its first 100, in order', () => {
    const result = toCompleteResult(candidates(5000));
    expect(result.completion.values).toHaveLength(100);
    expect(result.completion.values[0]).toBe('v0');
    expect(result.completion.values[99]).toBe('v99');
    expect(result.completion.total).toBe(5000);
    expect(result.completion.hasMore).toBe(true);
  });

  it('does not alter the completer’s list', () => {
    const values = candidates(150);
    toCompleteResult(values);
    expect(values).toHaveLength(150);
  });

  it('accepts a frozen list', () => {
    expect(toCompleteResult(Object.freeze(['a']))).toStrictEqual({
      completion: { values: ['a'], total: 1, hasMore: false },
    });
  });
});

describe('toCompleteResult: { values, total?, hasMore? }', () => {
  it('sends values alone when the completer says nothing more', () => {
    expect(toCompleteResult({ values: ['a', 'b'] })).toStrictEqual({ completion: { values: ['a', 'b'] } });
  });

  it('keeps the completer’s own total and hasMore', () => {
    expect(toCompleteResult({ values: ['a', 'b'], total: 40, hasMore: true })).toStrictEqual({
      completion: { values: ['a', 'b'], total: 40, hasMore: true },
    });
  });

  it('keeps hasMore false with a total equal to the values', () => {
    expect(toCompleteResult({ values: ['a'], total: 1, hasMore: false })).toStrictEqual({
      completion: { values: ['a'], total: 1, hasMore: false },
    });
  });

  it('derives hasMore from a total larger than the values', () => {
    expect(toCompleteResult({ values: ['a', 'b'], total: 3 })).toStrictEqual({
      completion: { values: ['a', 'b'], total: 3, hasMore: true },
    });
  });

  it('derives hasMore false from a total equal to the values', () => {
    expect(toCompleteResult({ values: ['a', 'b'], total: 2 })).toStrictEqual({
      completion: { values: ['a', 'b'], total: 2, hasMore: false },
    });
  });

  it('lets hasMore true stand even with a total equal to the values (the completer knows best)', () => {
    expect(toCompleteResult({ values: ['a'], total: 1, hasMore: true })).toStrictEqual({
      completion: { values: ['a'], total: 1, hasMore: true },
    });
  });

  it('sets hasMore true over the completer’s false when its total says there is more', () => {
    expect(toCompleteResult({ values: ['a'], total: 9, hasMore: false })).toStrictEqual({
      completion: { values: ['a'], total: 9, hasMore: true },
    });
  });

  it.each([
    ['true', true],
    ['false', false],
  ])('keeps a lone hasMore %s', (_label, hasMore) => {
    expect(toCompleteResult({ values: ['a'], hasMore })).toStrictEqual({ completion: { values: ['a'], hasMore } });
  });

  it('keeps total 0 for no values', () => {
    expect(toCompleteResult({ values: [], total: 0 })).toStrictEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });

  it.each([
    ['smaller than the values', 1],
    ['negative', -1],
    ['not an integer', 2.5],
    ['NaN', Number.NaN],
    ['infinite', Number.POSITIVE_INFINITY],
    ['a string', '10'],
    ['null', null],
  ])('ignores a total that is %s', (_label, total) => {
    expect(toCompleteResult({ values: ['a', 'b'], total } as never)).toStrictEqual({
      completion: { values: ['a', 'b'] },
    });
  });

  it('ignores a bogus total but keeps the completer’s hasMore', () => {
    expect(toCompleteResult({ values: ['a', 'b'], total: 1, hasMore: true })).toStrictEqual({
      completion: { values: ['a', 'b'], hasMore: true },
    });
    expect(toCompleteResult({ values: ['a', 'b'], total: 1.5, hasMore: false })).toStrictEqual({
      completion: { values: ['a', 'b'], hasMore: false },
    });
  });

  it.each([
    ['a string', 'yes'],
    ['a number', 1],
    ['null', null],
  ])('ignores a hasMore that is %s', (_label, hasMore) => {
    expect(toCompleteResult({ values: ['a'], hasMore } as never)).toStrictEqual({ completion: { values: ['a'] } });
  });

  it('sends exactly 100 values uncut, without inventing a total', () => {
    const values = candidates(100);
    expect(toCompleteResult({ values })).toStrictEqual({ completion: { values } });
  });

  it('cuts 101 values: total from the values, hasMore true', () => {
    const values = candidates(101);
    expect(toCompleteResult({ values })).toStrictEqual({
      completion: { values: values.slice(0, 100), total: 101, hasMore: true },
    });
  });

  it('cuts, keeping a larger total of its own', () => {
    const values = candidates(150);
    expect(toCompleteResult({ values, total: 1000 })).toStrictEqual({
      completion: { values: values.slice(0, 100), total: 1000, hasMore: true },
    });
  });

  it('cuts, replacing a total smaller than the values and a hasMore false', () => {
    const values = candidates(150);
    expect(toCompleteResult({ values, total: 120, hasMore: false })).toStrictEqual({
      completion: { values: values.slice(0, 100), total: 150, hasMore: true },
    });
  });

  it('drops members other than values, total and hasMore', () => {
    expect(toCompleteResult({ values: ['a'], extra: 'x' } as never)).toStrictEqual({ completion: { values: ['a'] } });
  });
});

describe('toCompleteResult: refusals', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'Paris'],
    ['a number', 3],
    ['an object without values', { total: 3 }],
    ['values that are not a list', { values: 'Paris' }],
    ['values that are a Set', { values: new Set(['Paris']) }],
    ['a list holding a number', ['Paris', 3]],
    ['a list holding null', [null]],
    ['a list holding undefined', ['a', undefined]],
    ['a list holding an object', [{ value: 'Paris' }]],
    ['values holding a number', { values: ['a', 1] }],
    ['a nested list', [['Paris']]],
  ])('throws a TypeError for %s', (_label, value) => {
    expect(() => toCompleteResult(value)).toThrow(new TypeError(TYPE_ERROR));
  });
});
