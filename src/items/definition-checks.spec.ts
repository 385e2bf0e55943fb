import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { Icon } from '../protocol/mcp.types.js';
import { checkIcons, checkTimeout, deepFreeze, isValidTimeout, ITEM_NAME, optional } from './definition-checks.js';
import { MAX_TIMER_MS } from '../mcp.constants.js';

const LABEL = '@McpPrompt() on Prompts.greet';

function definitionErrorOf(action: () => unknown): McpDefinitionError {
  try {
    action();
  } catch (error) {
    if (error instanceof McpDefinitionError) return error;
    throw error;
  }
  throw new Error('expected an McpDefinitionError');
}

describe('MAX_TIMER_MS', () => {
  it('is the largest delay Node timers honour', () => {
    expect(MAX_TIMER_MS).toBe(2147483647);
  });
});

describe('ITEM_NAME', () => {
  it.each(['a', 'greet', 'get_weather', 'v1.2-beta', 'A.B_C-D', '0', 'x'.repeat(128)])('accepts %p', (name) => {
    expect(ITEM_NAME.test(name)).toBe(true);
  });

  it.each(['', 'x'.repeat(129), 'has space', 'slash/name', 'colon:name', 'émoji', 'tab\tname', 'new\nline', 'a@b'])(
    'refuses %p',
    (name) => {
      expect(ITEM_NAME.test(name)).toBe(false);
    },
  );
});

describe('isValidTimeout', () => {
  it.each([undefined, 1, 1000, MAX_TIMER_MS])('accepts %p', (value) => {
    expect(isValidTimeout(value)).toBe(true);
  });

  it.each([0, -1, 1.5, MAX_TIMER_MS + 1, Number.NaN, Number.POSITIVE_INFINITY, '1000', null, true, {}])(
    'refuses %p',
    (value) => {
      expect(isValidTimeout(value)).toBe(false);
    },
  );
});

describe('checkTimeout', () => {
  it.each([undefined, 1, MAX_TIMER_MS])('lets %p through', (value) => {
    expect(() => checkTimeout(value, LABEL)).not.toThrow();
  });

  it.each([
    [0, '0'],
    [-5, '-5'],
    [2.5, '2.5'],
    [MAX_TIMER_MS + 1, '2147483648'],
    ['100', '100'],
    [null, 'null'],
  ])('refuses %p naming the item and the value', (value, shown) => {
    const error = definitionErrorOf(() => checkTimeout(value, LABEL));
    expect(error.name).toBe('McpDefinitionError');
    expect(error.message).toBe(
      `${LABEL}: timeoutMs must be a whole number of milliseconds from 1 to 2147483647, got ${shown}`,
    );
  });
});

describe('checkIcons', () => {
  it('returns undefined for no icons', () => {
    expect(checkIcons(undefined, LABEL)).toBeUndefined();
  });

  it('returns the very list when every icon has a src', () => {
    const icons: Icon[] = [
      { src: 'https://example.com/a.png', mimeType: 'image/png', sizes: ['48x48'] },
      { src: 'data:image/svg+xml;base64,PHN2Zy8+', theme: 'dark' },
    ];
    expect(checkIcons(icons, LABEL)).toBe(icons);
  });

  it('accepts an empty list', () => {
    const icons: Icon[] = [];
    expect(checkIcons(icons, LABEL)).toBe(icons);
  });

  it.each([
    ['no src', [{ mimeType: 'image/png' }], 0],
    ['an empty src', [{ src: '' }], 0],
    ['a numeric src', [{ src: 1 }], 0],
    ['a null icon', [null], 0],
    ['a string icon', ['https://example.com/a.png'], 0],
    ['a bad second icon', [{ src: 'https://example.com/a.png' }, { src: '' }], 1],
    ['a bad third icon', [{ src: 'a' }, { src: 'b' }, {}], 2],
  ])('refuses icons with %s, naming its index', (_label, icons, index) => {
    const error = definitionErrorOf(() => checkIcons(icons as unknown as Icon[], LABEL));
    expect(error.message).toBe(`${LABEL}: icons[${index}] needs a src URI`);
  });

  it.each([
    ['an object', { src: 'https://example.com/a.png' }],
    ['a string', 'https://example.com/a.png'],
    ['null', null],
  ])('refuses icons that are %s, not a list', (_label, icons) => {
    const error = definitionErrorOf(() => checkIcons(icons as unknown as Icon[], LABEL));
    expect(error.message).toBe(`${LABEL}: icons[0] needs a src URI`);
  });
});

describe('optional', () => {
  it('gives { key: value } for a defined value', () => {
    expect(optional('title', 'Hello')).toStrictEqual({ title: 'Hello' });
  });

  it.each([null, 0, '', false])('keeps the falsy value %p', (value) => {
    expect(optional('x', value)).toStrictEqual({ x: value });
  });

  it('gives an object without the key for undefined', () => {
    const result = optional('title', undefined);
    expect(result).toStrictEqual({});
    expect('title' in result).toBe(false);
    expect({ name: 'n', ...optional('title', undefined) }).toStrictEqual({ name: 'n' });
  });
});

describe('deepFreeze', () => {
  it('freezes an object and everything under it, and returns it', () => {
    const value = { a: { b: [{ c: 1 }, [2]] }, d: 'x' };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a.b)).toBe(true);
    expect(Object.isFrozen(value.a.b[0])).toBe(true);
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    expect(() => {
      (value.a.b[0] as { c: number }).c = 2;
    }).toThrow(TypeError);
  });

  it.each([undefined, null, 0, 'text', true])('returns the primitive %p as is', (value) => {
    expect(deepFreeze(value)).toBe(value);
  });

  it('terminates on a cycle', () => {
    const value: { self?: unknown; list: unknown[] } = { list: [] };
    value.self = value;
    value.list.push(value);
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.list)).toBe(true);
  });
});
