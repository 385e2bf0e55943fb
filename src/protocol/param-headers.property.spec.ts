import fc from 'fast-check';
import { encodeHeaderValue } from './header-value.js';
import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import { checkParamHeaders, paramHeadersOf, X_MCP_HEADER, type ParamHeader } from './param-headers.js';

/** An RFC 9110 token: what `x-mcp-header` names are made of. */
const token = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/);
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

/** An argument a header may mirror: its schema type and a value JSON can carry for it. */
const argument = fc.oneof(
  fc.record({ type: fc.constant('string'), value: fc.string({ unit: 'binary', maxLength: 30 }) }),
  fc.record({
    type: fc.constant('integer'),
    // An `integer` property holds whatever number the client sent: the header is compared as a number.
    value: fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  }),
  fc.record({ type: fc.constant('boolean'), value: fc.boolean() }),
);
type Argument = { type: string; value: string | number | boolean };

interface Mirrored {
  readonly header: ParamHeader;
  readonly argument: Argument;
}

/** Mirrored arguments with names unique whatever their case, each at its own path (one or two keys deep). */
const mirrored: fc.Arbitrary<Mirrored[]> = fc
  .uniqueArray(
    fc.record({
      name: token,
      key: fc.string({ maxLength: 8 }),
      nested: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      argument,
    }),
    { selector: ({ name }) => name.toLowerCase(), minLength: 1, maxLength: 4 },
  )
  .map((list) =>
    list.map(({ name, key, nested, argument }, index) => ({
      header: { name, path: nested === undefined ? [`${index}${key}`] : [`${index}${key}`, nested] },
      argument,
    })),
  );

/** The arguments of a call that sets every mirrored one (own properties, even `__proto__`). */
function argsOf(list: readonly Mirrored[]): Record<string, unknown> {
  return Object.fromEntries(
    list.map(({ header: { path }, argument: { value } }) => [
      path[0]!,
      path.length === 1 ? value : Object.fromEntries([[path[1]!, value]]),
    ]),
  );
}

/** The input schema that marks them. */
function schemaOf(list: readonly Mirrored[]): Record<string, unknown> {
  const property = ({ header, argument }: Mirrored): Record<string, unknown> => ({
    type: argument.type,
    [X_MCP_HEADER]: header.name,
  });
  return {
    type: 'object',
    properties: Object.fromEntries(
      list.map((entry) => {
        const { path } = entry.header;
        return [
          path[0]!,
          path.length === 1
            ? property(entry)
            : { type: 'object', properties: Object.fromEntries([[path[1]!, property(entry)]]) },
        ];
      }),
    ),
  };
}

/** The headers a conforming client sends: each argument as text, in the header form. */
function conformingHeaders(list: readonly Mirrored[]): Map<string, string> {
  return new Map(
    list.map(({ header, argument }) => [
      `mcp-param-${header.name.toLowerCase()}`,
      encodeHeaderValue(String(argument.value)),
    ]),
  );
}

/** What `checkParamHeaders` threw: a -32020 naming the header, or a test failure. */
function mismatchOf(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(ErrorCode.HeaderMismatch);
    return ((error as JsonRpcError).data as { mismatch: { header: string } }).mismatch.header;
  }
}

describe('Mcp-Param-* header properties', () => {
  it('paramHeadersOf finds exactly the arguments a schema marks, at their paths', () => {
    fc.assert(
      fc.property(mirrored, (list) => {
        // In the schema's key order, which puts integer-like keys first: compared by name.
        const byName = (a: ParamHeader, b: ParamHeader): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
        expect(paramHeadersOf(schemaOf(list)).sort(byName)).toStrictEqual(
          list.map(({ header }) => header).sort(byName),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('paramHeadersOf throws nothing but TypeError on any JSON schema', () => {
    const schema = fc.dictionary(
      fc.constantFrom('type', 'properties', X_MCP_HEADER, 'items', 'anyOf', 'const', 'x'),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(schema, (value) => {
        try {
          paramHeadersOf(value);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the headers a conforming client writes always match the arguments', () => {
    fc.assert(
      fc.property(mirrored, (list) => {
        const headers = conformingHeaders(list);
        const headerList = list.map(({ header }) => header);
        expect(mismatchOf(() => checkParamHeaders(headerList, argsOf(list), (name) => headers.get(name)))).toBe(
          undefined,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('a header that mirrors another value never matches, and is named in the -32020', () => {
    const tampered = mirrored.chain((list) =>
      fc.tuple(
        fc.constant(list),
        fc.nat({ max: list.length - 1 }),
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 30 }),
          fc.integer().map(String),
          fc.constantFrom('true', 'false'),
        ),
      ),
    );
    fc.assert(
      fc.property(tampered, ([list, index, other]) => {
        const { header, argument } = list[index]!;
        const same =
          typeof argument.value === 'number'
            ? /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(other) && Number(other) === argument.value
            : other === String(argument.value);
        fc.pre(!same);
        const headers = conformingHeaders(list);
        headers.set(`mcp-param-${header.name.toLowerCase()}`, encodeHeaderValue(other));
        const headerList = list.map((entry) => entry.header);
        expect(mismatchOf(() => checkParamHeaders(headerList, argsOf(list), (name) => headers.get(name)))).toBe(
          `Mcp-Param-${header.name}`,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('a missing header, or one sent for an absent argument, never passes', () => {
    fc.assert(
      fc.property(mirrored, fc.nat(), fc.boolean(), (list, pick, dropArgument) => {
        const { header } = list[pick % list.length]!;
        const headers = conformingHeaders(list);
        const args = argsOf(list);
        if (dropArgument) delete args[header.path[0]!];
        else headers.delete(`mcp-param-${header.name.toLowerCase()}`);
        const headerList = list.map((entry) => entry.header);
        expect(mismatchOf(() => checkParamHeaders(headerList, args, (name) => headers.get(name)))).toBe(
          `Mcp-Param-${header.name}`,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('checkParamHeaders throws nothing but -32020 on any header text and any arguments', () => {
    const headerText = fc.option(fc.string({ unit: codeUnit, maxLength: 40 }), { nil: undefined });
    fc.assert(
      fc.property(
        mirrored,
        fc.array(headerText, { minLength: 4, maxLength: 4 }),
        fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), { nil: undefined }),
        (list, texts, args) => {
          const headers = new Map(
            list.map(({ header }, index) => [`mcp-param-${header.name.toLowerCase()}`, texts[index]]),
          );
          const headerList = list.map((entry) => entry.header);
          mismatchOf(() => checkParamHeaders(headerList, args ?? argsOf(list), (name) => headers.get(name)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
