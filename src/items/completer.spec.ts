import type { ServedHandler } from '../execution/served-handler.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpCompleter, McpCompleters, McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import { completerTable, isReplaceable, listCompleter, type ItemCompleter } from './completer.js';

const LABEL = '@McpPrompt() on Trips.plan';
const OWNER = 'Trips.plan';
const ctx = {} as McpContext;

function request(value: string, argument = 'city'): McpCompletionRequest {
  return { argument, value, arguments: {} };
}

/** Runs a function completer of the table. */
async function run(completer: ItemCompleter | undefined, value: string): Promise<unknown> {
  if (completer?.kind !== 'function') throw new Error(`expected a function completer, got ${completer?.kind}`);
  return completer.complete(request(value), ctx);
}

function definitionErrorOf(action: () => unknown): McpDefinitionError {
  try {
    action();
  } catch (error) {
    if (error instanceof McpDefinitionError) return error;
    throw error;
  }
  throw new Error('expected an McpDefinitionError');
}

describe('listCompleter', () => {
  const cities = ['Paris', 'Passau', 'Berlin', 'parma', 'PARO', 'Bern'];

  it('returns every candidate, in order, for an empty value', () => {
    expect(listCompleter(cities)(request(''), ctx)).toEqual(cities);
  });

  it('offers the candidates starting with the value, case-insensitively, in their order', () => {
    const complete = listCompleter(cities);
    expect(complete(request('pa'), ctx)).toEqual(['Paris', 'Passau', 'parma', 'PARO']);
    expect(complete(request('PAR'), ctx)).toEqual(['Paris', 'parma', 'PARO']);
    expect(complete(request('bEr'), ctx)).toEqual(['Berlin', 'Bern']);
    expect(complete(request('Berlin'), ctx)).toEqual(['Berlin']);
  });

  it('matches prefixes only, not substrings', () => {
    expect(listCompleter(cities)(request('ris'), ctx)).toEqual([]);
    expect(listCompleter(cities)(request('Berlins'), ctx)).toEqual([]);
  });

  it('matches non-ASCII candidates case-insensitively', () => {
    expect(listCompleter(['Élysée', 'Zürich', 'zoo'])(request('é'), ctx)).toEqual(['Élysée']);
    expect(listCompleter(['Élysée', 'Zürich', 'zoo'])(request('ZÜ'), ctx)).toEqual(['Zürich']);
  });

  it('copies the candidates: later changes to the caller’s array do not leak in', () => {
    const list = ['a1', 'a2'];
    const complete = listCompleter(list);
    list.push('a3');
    list[0] = 'changed';
    expect(complete(request(''), ctx)).toEqual(['a1', 'a2']);
    expect(complete(request('a'), ctx)).toEqual(['a1', 'a2']);
  });

  it('returns a frozen list for an empty value, so a caller cannot alter the candidates', () => {
    const complete = listCompleter(['x', 'y']);
    const all = complete(request(''), ctx) as string[];
    expect(Object.isFrozen(all)).toBe(true);
    expect(() => all.push('z')).toThrow(TypeError);
    expect(complete(request(''), ctx)).toEqual(['x', 'y']);
  });

  it('offers nothing from an empty list', () => {
    expect(listCompleter([])(request(''), ctx)).toEqual([]);
    expect(listCompleter([])(request('a'), ctx)).toEqual([]);
  });
});

describe('completerTable: the complete option', () => {
  it('is empty without complete option nor schema', () => {
    expect(completerTable(undefined, ['city'], undefined, LABEL, OWNER)).toEqual(new Map());
  });

  it('keeps a function as is, with its owner and without auto', () => {
    const fn: McpCompleter = () => ['x'];
    const table = completerTable({ city: fn }, ['city', 'day'], undefined, LABEL, OWNER);
    expect([...table.keys()]).toEqual(['city']);
    expect(table.get('city')).toStrictEqual({ kind: 'function', owner: OWNER, complete: fn });
  });

  it('turns a list of strings into a prefix completer', async () => {
    const table = completerTable({ day: ['Monday', 'Tuesday', 'monsoon'] }, ['day'], undefined, LABEL, OWNER);
    const entry = table.get('day')!;
    expect(entry).toMatchObject({ kind: 'function', owner: OWNER });
    expect('auto' in entry).toBe(false);
    expect(await run(entry, 'MON')).toEqual(['Monday', 'monsoon']);
    expect(await run(entry, '')).toEqual(['Monday', 'Tuesday', 'monsoon']);
  });

  it('accepts an empty list', async () => {
    const table = completerTable({ day: [] }, ['day'], undefined, LABEL, OWNER);
    expect(await run(table.get('day'), '')).toEqual([]);
  });

  it('refuses an entry for an undeclared argument, listing the declared ones', () => {
    const error = definitionErrorOf(() =>
      completerTable({ country: ['FR'] }, ['city', 'day'], undefined, LABEL, OWNER),
    );
    expect(error.name).toBe('McpDefinitionError');
    expect(error.message).toBe(`${LABEL}: complete.country names no argument (it has: city, day)`);
  });

  it('says "none" when the item declares no argument', () => {
    const error = definitionErrorOf(() => completerTable({ city: () => [] }, [], undefined, LABEL, OWNER));
    expect(error.message).toBe(`${LABEL}: complete.city names no argument (it has: none)`);
  });

  it.each([
    ['a string', 'Paris'],
    ['a number', 3],
    ['null', null],
    ['an object', { values: ['Paris'] }],
    ['a list holding a number', ['Paris', 3]],
    ['a list holding null', [null]],
    ['a Set', new Set(['Paris'])],
  ])('refuses %s as a source', (_label, source) => {
    const error = definitionErrorOf(() =>
      completerTable({ city: source } as unknown as McpCompleters, ['city'], undefined, LABEL, OWNER),
    );
    expect(error.message).toBe(`${LABEL}: complete.city must be a function or a list of strings`);
  });

  it('checks the declared name before the source type', () => {
    const error = definitionErrorOf(() =>
      completerTable({ nope: 42 } as unknown as McpCompleters, ['city'], undefined, LABEL, OWNER),
    );
    expect(error.message).toBe(`${LABEL}: complete.nope names no argument (it has: city)`);
  });
});

describe('completerTable: completers derived from enum', () => {
  const schema: JsonSchemaObject = {
    type: 'object',
    properties: {
      unit: { type: 'string', enum: ['celsius', 'fahrenheit', 'Kelvin'] },
      city: { type: 'string' },
      level: { type: 'number', enum: [1, 2, 3] },
      mixed: { enum: ['a', 1] },
      notDeclared: { type: 'string', enum: ['x'] },
    },
    required: ['city'],
  };

  it('adds an auto completer for each declared string enum, and only those', async () => {
    const table = completerTable(undefined, ['unit', 'city', 'level', 'mixed'], schema, LABEL, OWNER);
    expect([...table.keys()]).toEqual(['unit']);
    const unit = table.get('unit')!;
    expect(unit).toMatchObject({ kind: 'function', owner: OWNER, auto: true });
    expect(await run(unit, '')).toEqual(['celsius', 'fahrenheit', 'Kelvin']);
    expect(await run(unit, 'k')).toEqual(['Kelvin']);
  });

  it('ignores an enum on a property the item does not declare', () => {
    const table = completerTable(undefined, ['city'], schema, LABEL, OWNER);
    expect(table.has('notDeclared')).toBe(false);
    expect(table.size).toBe(0);
  });

  it('lets an explicit function win over the enum', () => {
    const fn: McpCompleter = () => ['explicit'];
    const table = completerTable({ unit: fn }, ['unit'], schema, LABEL, OWNER);
    expect(table.get('unit')).toStrictEqual({ kind: 'function', owner: OWNER, complete: fn });
  });

  it('lets an explicit list win over the enum', async () => {
    const table = completerTable({ unit: ['rankine'] }, ['unit'], schema, LABEL, OWNER);
    const unit = table.get('unit')!;
    expect('auto' in unit).toBe(false);
    expect(await run(unit, '')).toEqual(['rankine']);
  });

  it('keeps explicit entries and adds derived ones side by side', () => {
    const fn: McpCompleter = () => [];
    const table = completerTable({ city: fn }, ['unit', 'city'], schema, LABEL, OWNER);
    expect(table.get('city')).toStrictEqual({ kind: 'function', owner: OWNER, complete: fn });
    expect(table.get('unit')).toMatchObject({ kind: 'function', auto: true });
  });

  it('derives nothing from a schema without properties', () => {
    expect(completerTable(undefined, ['unit'], { type: 'object' }, LABEL, OWNER).size).toBe(0);
  });

  it('does not treat prototype members as properties', () => {
    const table = completerTable(
      undefined,
      ['constructor', 'toString'],
      { type: 'object', properties: {} },
      LABEL,
      OWNER,
    );
    expect(table.size).toBe(0);
  });
});

describe('isReplaceable', () => {
  const handler: ServedHandler = { owner: 'Other.method', target: () => Promise.reject(new Error('unused')) };

  it('is true when there is no completer', () => {
    expect(isReplaceable(undefined)).toBe(true);
  });

  it('is true for a completer derived from an enum', () => {
    const table = completerTable(
      undefined,
      ['unit'],
      { type: 'object', properties: { unit: { enum: ['c', 'f'] } } },
      LABEL,
      OWNER,
    );
    expect(isReplaceable(table.get('unit'))).toBe(true);
  });

  it('is false for an explicit function or list', () => {
    const table = completerTable({ a: () => [], b: ['x'] }, ['a', 'b'], undefined, LABEL, OWNER);
    expect(isReplaceable(table.get('a'))).toBe(false);
    expect(isReplaceable(table.get('b'))).toBe(false);
  });

  it('is false for a function entry marked auto: false', () => {
    expect(isReplaceable({ kind: 'function', owner: OWNER, complete: () => [], auto: false })).toBe(false);
  });

  it('is false for an @McpCompletion() handler', () => {
    expect(isReplaceable({ kind: 'handler', handler })).toBe(false);
  });
});
