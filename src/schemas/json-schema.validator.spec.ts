import { jest } from '@jest/globals';
import {
  JSON_SCHEMA_2020_12,
  JSON_SCHEMA_DRAFT_07,
  JsonSchemaValidatorFactory,
  MAX_SCHEMA_PROBLEMS,
  type SchemaCheck,
} from './json-schema.validator.js';

/** The input schema of the conformance suite's `json_schema_2020_12_tool`, as the suite publishes it. */
const CONFORMANCE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        city: { type: 'string' },
      },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
  },
  additionalProperties: false,
};

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

function problemsOf(check: SchemaCheck): string[] {
  if (check.ok) throw new Error('expected the value to be rejected');
  return check.problems;
}

let factory: JsonSchemaValidatorFactory;

beforeEach(() => {
  factory = new JsonSchemaValidatorFactory();
});

describe('the conformance 2020-12 schema', () => {
  it('compiles frozen', () => {
    const schema = deepFreeze(structuredClone(CONFORMANCE_SCHEMA));
    expect(() => factory.compile(schema)).not.toThrow();
  });

  it.each([
    ['an empty object', {}],
    ['a name', { name: 'Ada' }],
    ['a full address', { name: 'Ada', address: { street: '1 Main St', city: 'London' } }],
    ['a partial address', { address: { city: 'London' } }],
    ['an address with extra members, which its definition allows', { address: { city: 'London', zip: 'N1' } }],
  ])('accepts %s', (_label, value) => {
    expect(factory.compile(CONFORMANCE_SCHEMA)(value)).toEqual({ ok: true });
  });

  it.each([
    ['an unknown member', { name: 'Ada', extra: 1 }, ["(root): must NOT have additional property 'extra'"]],
    ['a numeric name', { name: 42 }, ['/name: must be string']],
    ['a numeric city', { address: { city: 5 } }, ['/address/city: must be string']],
    ['an address that is a string', { address: '1 Main St' }, ['/address: must be object']],
    ['a string', 'Ada', ['(root): must be object']],
    ['null', null, ['(root): must be object']],
    ['an array', [], ['(root): must be object']],
  ])('rejects %s, naming the problem', (_label, value, problems) => {
    expect(factory.compile(CONFORMANCE_SCHEMA)(value)).toEqual({ ok: false, problems });
  });

  it('names every problem at once', () => {
    const check = factory.compile(CONFORMANCE_SCHEMA)({
      name: 1,
      address: { street: [], city: null },
      zip: 'N1',
      country: 'UK',
    });
    expect(problemsOf(check).sort()).toEqual(
      [
        "(root): must NOT have additional property 'zip'",
        "(root): must NOT have additional property 'country'",
        '/name: must be string',
        '/address/street: must be string',
        '/address/city: must be string',
      ].sort(),
    );
  });
});

describe('dialects', () => {
  // prefixItems exists in 2020-12 only; tuple-form `items` in draft-07 only.
  const tuple2020 = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] };
  const tuple07 = { $schema: JSON_SCHEMA_DRAFT_07, type: 'array', items: [{ type: 'string' }, { type: 'number' }] };

  it.each([
    ['absent', undefined],
    ['the 2020-12 URI', JSON_SCHEMA_2020_12],
    ['the 2020-12 URI with an empty fragment', `${JSON_SCHEMA_2020_12}#`],
  ])('reads a schema as 2020-12 when $schema is %s', (_label, $schema) => {
    const validate = factory.compile($schema === undefined ? tuple2020 : { $schema, ...tuple2020 });
    expect(validate(['a', 1])).toEqual({ ok: true });
    expect(validate(['a', 'b'])).toEqual({ ok: false, problems: ['/1: must be number'] });
  });

  it.each([
    ['with its empty fragment', JSON_SCHEMA_DRAFT_07],
    ['without a fragment', 'http://json-schema.org/draft-07/schema'],
  ])('reads a schema as draft-07 when $schema is the draft-07 URI %s', (_label, $schema) => {
    const validate = factory.compile({ ...tuple07, $schema });
    expect(validate(['a', 1])).toEqual({ ok: true });
    expect(validate(['a', 'b'])).toEqual({ ok: false, problems: ['/1: must be number'] });
  });

  it('validates draft-07 definitions, $ref and dependencies', () => {
    const validate = factory.compile({
      $schema: JSON_SCHEMA_DRAFT_07,
      definitions: { city: { type: 'string', minLength: 1 } },
      type: 'object',
      properties: { city: { $ref: '#/definitions/city' }, zip: { type: 'string' } },
      dependencies: { zip: ['city'] },
      required: ['city'],
    });
    expect(validate({ city: 'Paris', zip: '75001' })).toEqual({ ok: true });
    expect(problemsOf(validate({ zip: '75001' }))).toEqual([
      "(root): must have required property 'city'",
      '(root): must have property city when property zip is present',
    ]);
    expect(validate({ city: '' })).toEqual({ ok: false, problems: ['/city: must NOT have fewer than 1 characters'] });
  });

  it('refuses draft-07 tuple items in a 2020-12 schema', () => {
    const { $schema: _draft07, ...without } = tuple07;
    expect(() => factory.compile(without)).toThrow(/JSON Schema \(2020-12\) does not compile: schema is invalid/);
  });

  it.each([
    'http://json-schema.org/draft-04/schema#',
    'http://json-schema.org/draft-06/schema#',
    'https://json-schema.org/draft/2019-09/schema',
    'https://json-schema.org/draft-07/schema#',
    'http://json-schema.org/schema#',
    'https://json-schema.org/draft/2020-12/schema##',
    'https://json-schema.org/draft/2020-12/schema/',
    'HTTPS://JSON-SCHEMA.ORG/DRAFT/2020-12/SCHEMA',
    '',
    'not a uri',
  ])('refuses the dialect %p, naming it', ($schema) => {
    expect(() => factory.compile({ $schema, type: 'object' })).toThrow(
      `Unsupported JSON Schema dialect ${JSON.stringify($schema)}`,
    );
  });

  it.each([null, 2020, true, { $id: JSON_SCHEMA_2020_12 }, [JSON_SCHEMA_2020_12]])(
    'refuses the non-string $schema %p, naming it',
    ($schema) => {
      expect(() => factory.compile({ $schema, type: 'object' })).toThrow(
        `Unsupported JSON Schema dialect ${JSON.stringify($schema)}`,
      );
    },
  );

  it('creates each dialect’s Ajv on first use only', () => {
    factory.compile({ type: 'string' });
    expect(Reflect.get(factory, 'ajv2020')).toBeDefined();
    expect(Reflect.get(factory, 'ajvDraft07')).toBeUndefined();
    factory.compile({ $schema: JSON_SCHEMA_DRAFT_07, type: 'string' });
    const draft07 = Reflect.get(factory, 'ajvDraft07');
    factory.compile({ $schema: JSON_SCHEMA_DRAFT_07, type: 'number' });
    expect(Reflect.get(factory, 'ajvDraft07')).toBe(draft07);
  });
});

describe('schemas that do not compile', () => {
  it.each([
    ['an unknown type', { type: 'strin' }, /JSON Schema \(2020-12\) does not compile: schema is invalid: data\/type/],
    ['a wrong keyword value', { type: 'string', minLength: 'x' }, /does not compile: schema is invalid/],
    [
      'an unresolvable $ref',
      { $ref: '#/$defs/missing' },
      /does not compile: can't resolve reference #\/\$defs\/missing/,
    ],
    ['a remote $ref', { $ref: 'https://example.com/schema.json' }, /does not compile: can't resolve reference/],
    [
      'an invalid draft-07 schema',
      { $schema: JSON_SCHEMA_DRAFT_07, required: 'city' },
      /JSON Schema \(draft-07\) does not compile: schema is invalid/,
    ],
    ['an asynchronous schema', { $async: true, type: 'object' }, /\$async schemas validate asynchronously/],
  ])('throws for %s, with the reason', (_label, schema, message) => {
    expect(() => factory.compile(schema)).toThrow(message);
  });

  it('keeps Ajv’s error as the cause', () => {
    let thrown: unknown;
    try {
      factory.compile({ $ref: '#/nowhere' });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).cause).toBeInstanceOf(Error);
  });

  it('throws again when the same schema object is compiled again', () => {
    const schema = deepFreeze({ type: 'object', properties: { a: { type: 'string', maxLength: -1 } } });
    expect(() => factory.compile(schema)).toThrow(/schema is invalid/);
    expect(() => factory.compile(schema)).toThrow(/schema is invalid/);
  });

  it.each([null, undefined, 'schema', 42, true, [{ type: 'string' }]])('throws a TypeError for %p', (schema) => {
    expect(() => factory.compile(schema as unknown as object)).toThrow(TypeError);
  });

  it('leaves the factory usable', () => {
    expect(() => factory.compile({ type: 'nope' })).toThrow();
    expect(factory.compile({ type: 'string' })('a')).toEqual({ ok: true });
  });
});

describe('frozen schemas', () => {
  it.each([
    ['the conformance schema', CONFORMANCE_SCHEMA, { name: 'Ada', address: { city: 'London' } }, { name: 1 }],
    [
      'a draft-07 schema',
      {
        $schema: JSON_SCHEMA_DRAFT_07,
        definitions: { mail: { type: 'string', format: 'email' } },
        properties: { to: { $ref: '#/definitions/mail' }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
        required: ['to'],
      },
      { to: 'a@example.com', tags: ['a'] },
      { to: 'nope', tags: ['c'] },
    ],
    [
      'a recursive schema with defaults and patterns',
      {
        $defs: {
          node: {
            type: 'object',
            properties: {
              label: { type: 'string', pattern: '^[a-z]+$', default: 'x' },
              children: { type: 'array', items: { $ref: '#/$defs/node' } },
            },
          },
        },
        $ref: '#/$defs/node',
        'x-vendor': { nested: [1, 2] },
      },
      { label: 'root', children: [{ label: 'leaf' }] },
      { children: [{ label: 'UPPER' }] },
    ],
  ])('compiles and validates %s without changing it', (_label, schema, valid, invalid) => {
    const copy = structuredClone(schema);
    const frozen = deepFreeze(structuredClone(schema));
    const validate = factory.compile(frozen);
    expect(validate(deepFreeze(structuredClone(valid)))).toEqual({ ok: true });
    expect(validate(deepFreeze(structuredClone(invalid))).ok).toBe(false);
    expect(frozen).toEqual(copy);
  });

  it('does not fill in defaults in the value checked', () => {
    const value = { children: [] };
    factory.compile({ properties: { label: { type: 'string', default: 'x' } } })(value);
    expect(value).toEqual({ children: [] });
  });

  it('compiles the same frozen object more than once', () => {
    const schema = deepFreeze(structuredClone(CONFORMANCE_SCHEMA));
    const first = factory.compile(schema);
    const second = factory.compile(schema);
    expect(first({ extra: 1 }).ok).toBe(false);
    expect(second({ name: 'Ada' })).toEqual({ ok: true });
  });
});

describe('formats', () => {
  it.each([
    ['2020-12', {}],
    ['draft-07', { $schema: JSON_SCHEMA_DRAFT_07 }],
  ])('asserts email in %s', (_dialect, dialect) => {
    const validate = factory.compile({
      ...dialect,
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
    });
    expect(validate({ email: 'ada@example.com' })).toEqual({ ok: true });
    expect(validate({ email: 'not an email' })).toEqual({ ok: false, problems: ['/email: must match format "email"'] });
  });

  it.each([
    ['date-time', '2025-01-12T15:00:58Z', '12/01/2025'],
    ['date', '2025-01-12', '2025-02-30'],
    ['uri', 'https://example.com/a?b=c', 'not a uri'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567'],
    ['ipv4', '192.168.0.1', '999.1.1.1'],
    ['hostname', 'example.com', '-bad-.com'],
  ])('asserts %s', (format, good, bad) => {
    const validate = factory.compile({ type: 'string', format });
    expect(validate(good)).toEqual({ ok: true });
    expect(validate(bad)).toEqual({ ok: false, problems: [`(root): must match format "${format}"`] });
  });

  it('ignores an unknown format, silently', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const validate = factory.compile({ type: 'string', format: 'x-postcode' });
      expect(validate('anything')).toEqual({ ok: true });
      expect(validate(1)).toEqual({ ok: false, problems: ['(root): must be string'] });
      expect(warn).not.toHaveBeenCalled();
      expect(log).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
  });
});

describe('unknown keywords', () => {
  it('are ignored', () => {
    const validate = factory.compile({
      type: 'object',
      'x-ui': { widget: 'map' },
      example: { city: 'Paris' },
      properties: { city: { type: 'string', 'x-order': 1, deprecatedBy: 'town' } },
    });
    expect(validate({ city: 'Paris' })).toEqual({ ok: true });
    expect(validate({ city: 1 }).ok).toBe(false);
  });
});

describe('problems', () => {
  it('name a missing required property', () => {
    const validate = factory.compile({
      type: 'object',
      properties: { address: { type: 'object', required: ['city'] } },
      required: ['address'],
    });
    expect(validate({})).toEqual({ ok: false, problems: ["(root): must have required property 'address'"] });
    expect(validate({ address: {} })).toEqual({
      ok: false,
      problems: ["/address: must have required property 'city'"],
    });
  });

  it('locate items of arrays and escape property names', () => {
    const validate = factory.compile({
      type: 'object',
      properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'array', items: { type: 'integer' } } },
    });
    expect(problemsOf(validate({ 'a/b': 1, 'c~d': [1, 'two', 3.5] })).sort()).toEqual([
      '/a~1b: must be string',
      '/c~0d/1: must be integer',
      '/c~0d/2: must be integer',
    ]);
  });

  it('list the allowed values of an enum', () => {
    const validate = factory.compile({ properties: { unit: { enum: ['celsius', 'fahrenheit', null, 3] } } });
    expect(validate({ unit: 'kelvin' })).toEqual({
      ok: false,
      problems: ['/unit: must be one of "celsius", "fahrenheit", null, 3'],
    });
  });

  it('name the constant', () => {
    expect(factory.compile({ properties: { v: { const: { major: 1 } } } })({ v: 2 })).toEqual({
      ok: false,
      problems: ['/v: must be {"major":1}'],
    });
  });

  it('name an unevaluated property', () => {
    const validate = factory.compile({
      type: 'object',
      allOf: [{ properties: { a: { type: 'string' } } }],
      unevaluatedProperties: false,
    });
    expect(validate({ a: 'x' })).toEqual({ ok: true });
    expect(validate({ a: 'x', b: 1 })).toEqual({
      ok: false,
      problems: ["(root): must NOT have unevaluated property 'b'"],
    });
  });

  it('clip a long property name from the value', () => {
    const name = 'p'.repeat(5000);
    const [problem] = problemsOf(factory.compile(CONFORMANCE_SCHEMA)({ [name]: 1 }));
    expect(problem).toBe(`(root): must NOT have additional property '${'p'.repeat(200)}…'`);
  });

  it('clip a long path made of the value’s own property names', () => {
    const name = 'k'.repeat(5000);
    const [problem] = problemsOf(factory.compile({ additionalProperties: { type: 'string' } })({ [name]: 1 }));
    expect(problem).toBe(`/${'k'.repeat(199)}…: must be string`);
  });

  it('name a property called __proto__ like any other', () => {
    expect(factory.compile(CONFORMANCE_SCHEMA)(JSON.parse('{"__proto__": 1}'))).toEqual({
      ok: false,
      problems: ["(root): must NOT have additional property '__proto__'"],
    });
  });

  it('clip a long list of allowed values', () => {
    const allowed = Array.from({ length: 10_000 }, (_, index) => `value-${index}`);
    const [problem] = problemsOf(factory.compile({ enum: allowed })('other'));
    expect(problem!.length).toBeLessThan(250);
    expect(problem).toMatch(/^\(root\): must be one of "value-0", "value-1", .*…$/);
  });

  it(`stop at ${MAX_SCHEMA_PROBLEMS}, the last saying how many more there were`, () => {
    const names = Array.from({ length: 30 }, (_, index) => `p${index}`);
    const problems = problemsOf(factory.compile({ type: 'object', required: names })({}));
    expect(problems).toHaveLength(MAX_SCHEMA_PROBLEMS);
    expect(problems.slice(0, -1)).toEqual(
      names.slice(0, 19).map((name) => `(root): must have required property '${name}'`),
    );
    expect(problems.at(-1)).toBe('…and 11 more problems');
  });

  it(`are all listed when there are exactly ${MAX_SCHEMA_PROBLEMS}`, () => {
    const names = Array.from({ length: MAX_SCHEMA_PROBLEMS }, (_, index) => `p${index}`);
    const problems = problemsOf(factory.compile({ type: 'object', required: names })({}));
    expect(problems).toEqual(names.map((name) => `(root): must have required property '${name}'`));
  });

  it('belong to the call that found them', () => {
    const validate = factory.compile(CONFORMANCE_SCHEMA);
    const rejected = validate({ name: 1 });
    expect(validate({ name: 'Ada' })).toEqual({ ok: true });
    expect(validate({ extra: true })).toEqual({
      ok: false,
      problems: ["(root): must NOT have additional property 'extra'"],
    });
    expect(rejected).toEqual({ ok: false, problems: ['/name: must be string'] });
  });
});

describe('schemas sharing one factory', () => {
  it('may carry the same $id with different contents', () => {
    const strings = factory.compile({ $id: 'https://example.com/args', type: 'string' });
    const numbers = factory.compile({ $id: 'https://example.com/args', type: 'number' });
    expect(strings('a')).toEqual({ ok: true });
    expect(numbers('a').ok).toBe(false);
    expect(numbers(1)).toEqual({ ok: true });
  });

  it('do not resolve references to each other', () => {
    factory.compile({ $id: 'https://example.com/city', type: 'string' });
    factory.compile({ $defs: { zip: { $id: 'https://example.com/zip', type: 'string' } } });
    expect(() => factory.compile({ $ref: 'https://example.com/city' })).toThrow(/can't resolve reference/);
    expect(() => factory.compile({ $ref: 'https://example.com/zip' })).toThrow(/can't resolve reference/);
  });

  it('resolve their own $id references, nested ones included', () => {
    const validate = factory.compile({
      $id: 'https://example.com/order',
      $defs: { qty: { $id: 'https://example.com/qty', type: 'integer', minimum: 1 } },
      properties: { qty: { $ref: 'https://example.com/qty' }, self: { $ref: 'https://example.com/order' } },
    });
    expect(validate({ qty: 2, self: { qty: 1 } })).toEqual({ ok: true });
    expect(problemsOf(validate({ qty: 0, self: { qty: 'x' } })).sort()).toEqual([
      '/qty: must be >= 1',
      '/self/qty: must be integer',
    ]);
  });

  it('may recurse through the root, each to its own root', () => {
    const first = factory.compile({ type: 'object', properties: { c: { $ref: '#' } }, additionalProperties: false });
    const second = factory.compile({ type: 'object', properties: { z: { $ref: '#' } }, additionalProperties: false });
    expect(first({ c: { c: {} } })).toEqual({ ok: true });
    expect(first({ c: { z: {} } }).ok).toBe(false);
    expect(second({ z: { z: {} } })).toEqual({ ok: true });
    expect(second({ z: { c: {} } }).ok).toBe(false);
  });

  it('support $dynamicRef', () => {
    const validate = factory.compile({
      $schema: JSON_SCHEMA_2020_12,
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { kids: { type: 'array', items: { $dynamicRef: '#node' } } },
    });
    expect(validate({ kids: [{ kids: [] }] })).toEqual({ ok: true });
    expect(validate({ kids: [1] }).ok).toBe(false);
  });

  it.each([JSON_SCHEMA_2020_12, `${JSON_SCHEMA_2020_12}#`, 'https://json-schema.org/draft/2020-12/meta/core'])(
    'refuse the reserved $id %p and leave the meta-schemas intact',
    ($id) => {
      expect(() => factory.compile({ $id, type: 'string' })).toThrow(/is reserved/);
      expect(factory.compile({ $schema: JSON_SCHEMA_2020_12, type: 'string' })('a')).toEqual({ ok: true });
      expect(() => factory.compile({ type: 'strin' })).toThrow(/schema is invalid/);
    },
  );

  it('leave nothing registered after compiling', () => {
    const ajv = (): { refs: object } => Reflect.get(factory, 'ajv2020') as { refs: object };
    factory.compile({ type: 'string' });
    const before = Object.keys(ajv().refs).sort();
    factory.compile({ $id: 'https://example.com/a', $defs: { b: { $id: 'https://example.com/b' } } });
    factory.compile({ $ref: '#/$defs/x', $defs: { x: { $id: 'x' } } });
    expect(() => factory.compile({ $id: 'https://example.com/c', $ref: '#/nowhere' })).toThrow();
    expect(Object.keys(ajv().refs).sort()).toEqual(before);
  });

  it('are independent between factories', () => {
    const other = new JsonSchemaValidatorFactory();
    const mine = factory.compile({ type: 'string' });
    const theirs = other.compile({ type: 'number' });
    expect(mine('a')).toEqual({ ok: true });
    expect(theirs(1)).toEqual({ ok: true });
    expect(Reflect.get(factory, 'ajv2020')).not.toBe(Reflect.get(other, 'ajv2020'));
  });
});

describe('JsonSchemaValidatorFactory.compileShared', () => {
  it('compiles each distinct schema text once, and keeps different schemas apart', () => {
    const factory = new JsonSchemaValidatorFactory();
    const compile = jest.spyOn(factory, 'compile');
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const first = factory.compileShared(schema);
    const again = factory.compileShared(structuredClone(schema));
    const other = factory.compileShared({ type: 'object', properties: { city: { type: 'number' } } });
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(compile).toHaveBeenCalledTimes(2);
    expect(first({ city: 'Oslo' })).toEqual({ ok: true });
    expect(other({ city: 'Oslo' }).ok).toBe(false);
  });

  it('does not share across factories (one per application)', () => {
    const schema = { type: 'object' };
    expect(new JsonSchemaValidatorFactory().compileShared(schema)).not.toBe(
      new JsonSchemaValidatorFactory().compileShared(schema),
    );
  });
});
