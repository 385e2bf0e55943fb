import { JsonRpcError } from './json-rpc.errors.js';
import { checkParamHeaders, paramHeadersOf, X_MCP_HEADER, type ParamHeader } from './param-headers.js';
import { thrownBy } from '../../test/utils/thrown.js';

const PLACEMENT = 'x-mcp-header may only mark properties reached through "properties" keys from the root';

const marked = (name: unknown, type: unknown = 'string'): Record<string, unknown> => ({
  type,
  [X_MCP_HEADER]: name,
});

const objectOf = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

function definitionError(schema: Record<string, unknown>): string {
  const error = thrownBy(() => paramHeadersOf(schema));
  expect(error).toBeInstanceOf(TypeError);
  return error.message;
}

describe('X_MCP_HEADER', () => {
  it('is the schema keyword of SEP-2243', () => {
    expect(X_MCP_HEADER).toBe('x-mcp-header');
  });
});

describe('paramHeadersOf: what it finds', () => {
  it('finds the spec example', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', description: 'The region to execute the query in', 'x-mcp-header': 'Region' },
        query: { type: 'string', description: 'The SQL query to execute' },
      },
      required: ['region', 'query'],
    };
    expect(paramHeadersOf(schema)).toStrictEqual([{ name: 'Region', path: ['region'] }]);
  });

  it('finds nothing in a schema without the keyword', () => {
    expect(paramHeadersOf(objectOf({ a: { type: 'string' } }))).toStrictEqual([]);
    expect(paramHeadersOf({ type: 'object' })).toStrictEqual([]);
    expect(paramHeadersOf({})).toStrictEqual([]);
  });

  it('finds integer, string and boolean properties, in the order of the schema', () => {
    const schema = objectOf({
      count: marked('Count', 'integer'),
      plain: { type: 'string' },
      dry: marked('Dry-Run', 'boolean'),
      region: marked('Region'),
    });
    expect(paramHeadersOf(schema)).toStrictEqual([
      { name: 'Count', path: ['count'] },
      { name: 'Dry-Run', path: ['dry'] },
      { name: 'Region', path: ['region'] },
    ]);
  });

  it('finds nested properties reached through properties alone, with their whole path', () => {
    const schema = objectOf({
      target: objectOf({ zone: marked('Zone'), deep: objectOf({ id: marked('Id', 'integer') }) }),
      top: marked('Top'),
    });
    expect(paramHeadersOf(schema)).toStrictEqual([
      { name: 'Zone', path: ['target', 'zone'] },
      { name: 'Id', path: ['target', 'deep', 'id'] },
      { name: 'Top', path: ['top'] },
    ]);
  });

  it.each(['Region', 'X-Region_1.v2~', "!#$%&'*+-.^_`|~", 'a', '0'])('accepts the token %p as a name', (name) => {
    expect(paramHeadersOf(objectOf({ p: marked(name) }))).toStrictEqual([{ name, path: ['p'] }]);
  });

  it.each([
    ['default', { default: { 'x-mcp-header': 'D' } }],
    ['const', { const: { 'x-mcp-header': 'C' } }],
    ['enum', { enum: [{ 'x-mcp-header': 'E' }] }],
    ['examples', { examples: [{ 'x-mcp-header': 'X' }] }],
  ])('takes the keyword inside %s as instance data, not as a mark', (_keyword, data) => {
    const schema = objectOf({ config: { type: 'object', ...data } });
    expect(paramHeadersOf(schema)).toStrictEqual([]);
  });

  it('takes a property named x-mcp-header for what it is', () => {
    expect(paramHeadersOf(objectOf({ 'x-mcp-header': { type: 'string' } }))).toStrictEqual([]);
  });

  it('ignores schemas of properties that are not objects (boolean schemas)', () => {
    expect(paramHeadersOf(objectOf({ anything: true, nothing: false, region: marked('Region') }))).toStrictEqual([
      { name: 'Region', path: ['region'] },
    ]);
  });
});

describe('paramHeadersOf: names', () => {
  it.each([
    ['empty', ''],
    ['with a space', 'Has Space'],
    ['with a colon', 'a:b'],
    ['with CR LF', 'A\r\nB'],
    ['with a line feed', 'A\n'],
    ['with a tab', 'A\tB'],
    ['with NUL', 'A\u0000'],
    ['non-ASCII', 'Région'],
    ['with a slash', 'a/b'],
    ['with parentheses', 'a(b)'],
    ['with a quote', 'a"b'],
    ['a number', 42],
    ['null', null],
    ['true', true],
  ])('refuses a name that is %s', (_label, name) => {
    expect(definitionError(objectOf({ region: marked(name) }))).toBe(
      'x-mcp-header of region must be a non-empty HTTP token',
    );
  });

  it('names the path of a bad name', () => {
    expect(definitionError(objectOf({ target: objectOf({ zone: marked('') }) }))).toBe(
      'x-mcp-header of target.zone must be a non-empty HTTP token',
    );
  });

  it('refuses a name used twice, whatever its case', () => {
    expect(definitionError(objectOf({ a: marked('Region'), b: marked('region') }))).toBe(
      'x-mcp-header "region" is used twice (names are compared without case)',
    );
    expect(definitionError(objectOf({ a: marked('Region'), b: marked('Region', 'integer') }))).toBe(
      'x-mcp-header "Region" is used twice (names are compared without case)',
    );
  });

  it('refuses a name used twice at different depths', () => {
    expect(definitionError(objectOf({ a: marked('ZONE'), nested: objectOf({ z: marked('zone') }) }))).toBe(
      'x-mcp-header "zone" is used twice (names are compared without case)',
    );
  });
});

describe('paramHeadersOf: types', () => {
  it.each([
    ['number', 'number'],
    ['object', 'object'],
    ['array', 'array'],
    ['null', 'null'],
    ['a union of types', ['string', 'null']],
    ['no type at all', undefined],
  ])('refuses a mark on a property of %s', (_label, type) => {
    const property: Record<string, unknown> = { [X_MCP_HEADER]: 'P' };
    if (type !== undefined) property.type = type;
    expect(definitionError(objectOf({ p: property }))).toBe(
      'x-mcp-header "P" must mark an integer, string or boolean property (p)',
    );
  });

  it('refuses a mark on an object property, even if its own properties could hold marks', () => {
    const schema = objectOf({ target: { ...objectOf({ zone: { type: 'string' } }), [X_MCP_HEADER]: 'Target' } });
    expect(definitionError(schema)).toBe(
      'x-mcp-header "Target" must mark an integer, string or boolean property (target)',
    );
  });
});

describe('paramHeadersOf: placement', () => {
  it.each([
    ['on the root', { ...objectOf({}), [X_MCP_HEADER]: 'Root', type: 'string' }],
    ['in items', objectOf({ list: { type: 'array', items: marked('Item') } })],
    ['in properties under items', objectOf({ list: { type: 'array', items: objectOf({ id: marked('Id') }) } })],
    ['in prefixItems', objectOf({ pair: { type: 'array', prefixItems: [marked('First')] } })],
    ['in anyOf', { type: 'object', anyOf: [objectOf({ a: marked('A') })] }],
    ['in oneOf', objectOf({ p: { oneOf: [marked('A'), { type: 'integer' }] } })],
    ['in allOf', { allOf: [objectOf({ a: marked('A') })] }],
    ['in not', objectOf({ p: { type: 'string', not: marked('A') } })],
    ['in if', { if: objectOf({ a: marked('A') }), then: {} }],
    ['in then', { if: {}, then: objectOf({ a: marked('A') }) }],
    ['in else', { if: {}, else: objectOf({ a: marked('A') }) }],
    ['in $defs reached through $ref', { ...objectOf({ a: { $ref: '#/$defs/A' } }), $defs: { A: marked('A') } }],
    ['in definitions', { ...objectOf({}), definitions: { A: objectOf({ a: marked('A') }) } }],
    ['in additionalProperties', { ...objectOf({}), additionalProperties: marked('Extra') }],
    ['in patternProperties', { ...objectOf({}), patternProperties: { '^x': marked('X') } }],
    ['in dependentSchemas', { ...objectOf({}), dependentSchemas: { a: objectOf({ b: marked('B') }) } }],
    ['in a nested object without properties', objectOf({ o: { type: 'object', additionalProperties: marked('A') } })],
  ])('refuses a mark %s', (_label, schema) => {
    expect(definitionError(schema)).toBe(PLACEMENT);
  });

  it('refuses a misplaced mark even beside valid ones', () => {
    const schema = objectOf({ region: marked('Region'), list: { type: 'array', items: marked('Item') } });
    expect(definitionError(schema)).toBe(PLACEMENT);
  });
});

describe('checkParamHeaders', () => {
  const schema = objectOf({
    region: marked('Region'),
    count: marked('Count', 'integer'),
    dry: marked('Dry', 'boolean'),
    target: objectOf({ zone: marked('Zone') }),
    query: { type: 'string' },
  });
  const params: readonly ParamHeader[] = paramHeadersOf(schema);

  /** A header reader over lower-case names, recording what it was asked. */
  function reader(values: Record<string, string>): ((name: string) => string | undefined) & { asked: string[] } {
    const asked: string[] = [];
    const read = (name: string): string | undefined => {
      asked.push(name);
      return Object.hasOwn(values, name) ? values[name] : undefined;
    };
    return Object.assign(read, { asked });
  }

  function check(args: Record<string, unknown> | undefined, values: Record<string, string>): void {
    checkParamHeaders(params, args, reader(values));
  }

  function mismatchOf(args: Record<string, unknown> | undefined, values: Record<string, string>) {
    const error = thrownBy(() => check(args, values));
    expect(error).toBeInstanceOf(JsonRpcError);
    const { code, message, data } = error as JsonRpcError;
    return { code, message, data };
  }

  const full = { region: 'us-west1', count: 42, dry: false, target: { zone: 'b' }, query: 'SELECT 1' };
  const fullHeaders = {
    'mcp-param-region': 'us-west1',
    'mcp-param-count': '42',
    'mcp-param-dry': 'false',
    'mcp-param-zone': 'b',
  };

  it('accepts headers that match every mirrored argument', () => {
    expect(() => check(full, fullHeaders)).not.toThrow();
  });

  it('asks for headers by their lower-case names, in the order of the schema', () => {
    const read = reader(fullHeaders);
    checkParamHeaders(params, full, read);
    expect(read.asked).toStrictEqual(['mcp-param-region', 'mcp-param-count', 'mcp-param-dry', 'mcp-param-zone']);
  });

  it('accepts anything when the tool mirrors nothing', () => {
    expect(() => checkParamHeaders([], { region: 'x' }, reader({ 'mcp-param-region': 'y' }))).not.toThrow();
  });

  it('expects no header for arguments that are absent or null', () => {
    expect(() => check(undefined, {})).not.toThrow();
    expect(() => check({}, {})).not.toThrow();
    expect(() => check({ region: null, count: null, target: null }, {})).not.toThrow();
    expect(() => check({ target: {} }, {})).not.toThrow();
    expect(() => check({ target: 'not an object' }, {})).not.toThrow();
  });

  it('refuses a missing header for an argument the body has', () => {
    const { 'mcp-param-count': _omitted, ...rest } = fullHeaders;
    expect(mismatchOf(full, rest)).toStrictEqual({
      code: -32020,
      message: 'Header mismatch: the Mcp-Param-Count header is missing',
      data: { mismatch: { header: 'Mcp-Param-Count' } },
    });
  });

  it('refuses a missing header for a nested argument, named by its header', () => {
    const { 'mcp-param-zone': _omitted, ...rest } = fullHeaders;
    expect(mismatchOf(full, rest).data).toStrictEqual({ mismatch: { header: 'Mcp-Param-Zone' } });
  });

  it('refuses a header sent for an argument the body does not have', () => {
    expect(mismatchOf({}, { 'mcp-param-region': 'us-west1' })).toStrictEqual({
      code: -32020,
      message: 'Header mismatch: Mcp-Param-Region is sent for an argument the body does not have',
      data: { mismatch: { header: 'Mcp-Param-Region' } },
    });
  });

  it('refuses a header sent for a null argument', () => {
    expect(mismatchOf({ dry: null }, { 'mcp-param-dry': 'null' }).message).toBe(
      'Header mismatch: Mcp-Param-Dry is sent for an argument the body does not have',
    );
  });

  it('refuses a string header that differs from the argument, case included', () => {
    for (const header of ['us-east1', 'US-WEST1', 'us-west1 x', '']) {
      expect(mismatchOf(full, { ...fullHeaders, 'mcp-param-region': header })).toStrictEqual({
        code: -32020,
        message: 'Header mismatch: Mcp-Param-Region does not match the body',
        data: { mismatch: { header: 'Mcp-Param-Region' } },
      });
    }
  });

  it('decodes a base64 header before comparing', () => {
    const args = { ...full, region: 'Hello' };
    expect(() => check(args, { ...fullHeaders, 'mcp-param-region': '=?base64?SGVsbG8=?=' })).not.toThrow();
    expect(() =>
      check(
        { ...full, region: 'Hello, 世界' },
        {
          ...fullHeaders,
          'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
        },
      ),
    ).not.toThrow();
  });

  it('takes a value without the full sentinel literally', () => {
    expect(() => check({ region: 'SGVsbG8=' }, { 'mcp-param-region': 'SGVsbG8=' })).not.toThrow();
    expect(() => check({ region: '=?base64?SGVsbG8=' }, { 'mcp-param-region': '=?base64?SGVsbG8=' })).not.toThrow();
  });

  it('refuses a base64 header of another value', () => {
    expect(mismatchOf({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbA==?=' }).message).toBe(
      'Header mismatch: Mcp-Param-Region does not match the body',
    );
  });

  it.each([
    ['bad padding', '=?base64?SGVsbG8?='],
    ['bad characters', '=?base64?SGVs!!!bG8=?='],
    ['a raw line feed', 'Hel\nlo'],
    ['raw non-ASCII', 'Héllo'],
  ])('refuses a header with %s as not a valid header value', (_label, header) => {
    expect(mismatchOf({ region: 'Hello' }, { 'mcp-param-region': header })).toStrictEqual({
      code: -32020,
      message: 'Header mismatch: Mcp-Param-Region is not a valid header value',
      data: { mismatch: { header: 'Mcp-Param-Region' } },
    });
  });

  it.each([
    ['42', 42],
    ['42.0', 42],
    ['42.000', 42],
    ['-7', -7],
    ['0', 0],
    ['-0', 0],
    ['4.2e1', 42],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['=?base64?NDI=?=', 42],
  ])('compares integers as numbers: %p matches %p', (header, count) => {
    expect(() => check({ count }, { 'mcp-param-count': header })).not.toThrow();
  });

  it.each([
    ['43', 42],
    ['42.5', 42],
    ['', 0],
    [' ', 0],
    ['forty-two', 42],
    ['0x2A', 42],
    ['0b101010', 42],
    ['0o52', 42],
    ['+42', 42],
    ['42abc', 42],
    ['Infinity', 42],
    ['=?base64?IDQy?=', 42],
  ])('refuses the integer header %p for %p', (header, count) => {
    expect(mismatchOf({ count }, { 'mcp-param-count': header }).message).toBe(
      'Header mismatch: Mcp-Param-Count does not match the body',
    );
  });

  it('compares a string argument as a string, even one that looks like a number', () => {
    expect(() => check({ region: '42' }, { 'mcp-param-region': '42' })).not.toThrow();
    expect(mismatchOf({ region: '42' }, { 'mcp-param-region': '42.0' }).code).toBe(-32020);
  });

  it.each([
    ['true', true],
    ['false', false],
  ])('accepts the boolean header %p for %p', (header, dry) => {
    expect(() => check({ dry }, { 'mcp-param-dry': header })).not.toThrow();
  });

  it.each([
    ['True', true],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
    ['false', true],
    ['true', false],
    ['0', false],
    ['', false],
  ])('refuses the boolean header %p for %p', (header, dry) => {
    expect(mismatchOf({ dry }, { 'mcp-param-dry': header }).message).toBe(
      'Header mismatch: Mcp-Param-Dry does not match the body',
    );
  });

  it('refuses any header for an argument that is an object or an array', () => {
    expect(mismatchOf({ region: { a: 1 } }, { 'mcp-param-region': '[object Object]' }).code).toBe(-32020);
    expect(mismatchOf({ region: ['x'] }, { 'mcp-param-region': 'x' }).code).toBe(-32020);
  });

  it('reports the first failing header in the order of the schema', () => {
    const headers = { ...fullHeaders, 'mcp-param-count': '1', 'mcp-param-zone': 'z' };
    expect(mismatchOf(full, headers).data).toStrictEqual({ mismatch: { header: 'Mcp-Param-Count' } });
  });
});
