// These packages are CommonJS. Under NodeNext, TypeScript types a default import of them as the whole
// `module.exports`, while Node (and jest's ESM run) hand over what `module.exports` is: the class or plugin
// itself. Named imports are the same class for both. ajv-formats has no named export, but its plugin function
// carries itself as `.default`, which both read alike.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

/** The outcome of checking one value against a schema. */
export type SchemaCheck = { readonly ok: true } | { readonly ok: false; readonly problems: string[] };

/** Checks a value against the schema it was compiled from; reusable for any number of values. */
export type SchemaValidator = (value: unknown) => SchemaCheck;

/** The most problems one check reports; the last says how many more there were. */
export const MAX_SCHEMA_PROBLEMS = 20;

/** The dialect assumed when a schema has no `$schema`, as MCP prescribes. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** The other dialect accepted, still common in hand-written and generated schemas. */
export const JSON_SCHEMA_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

type AnyAjv = Ajv | Ajv2020;

const OK: SchemaCheck = Object.freeze({ ok: true });

const AJV_OPTIONS: Options = {
  allErrors: true,
  // Schemas written by users may carry keywords Ajv does not know (`x-…`, `example`): ignore them.
  strict: false,
  // An unknown format would otherwise be reported on the console, once per schema; it is ignored all the same.
  logger: false,
};

/** Distinct schemas whose validators {@link JsonSchemaValidatorFactory.compileShared} keeps. */
const MAX_SHARED_VALIDATORS = 1_000;

/**
 * Compiles raw JSON Schemas (a tool's `inputSchema`, an `outputSchema`) into validators, in the
 * 2020-12 dialect or in draft-07.
 *
 * One Ajv instance per dialect is shared by every schema, so a compiled schema leaves nothing behind in
 * it: `$id`s of different schemas never clash and never resolve across schemas. Compiling is costly and
 * each compilation keeps its code alive: compile each schema once and keep the validator.
 *
 * @example
 * ```ts
 * const validate = new JsonSchemaValidatorFactory().compile(tool.inputSchema);
 * const check = validate(args);
 * if (!check.ok) return textResult(check.problems.join('\n'), true);
 * ```
 */
export class JsonSchemaValidatorFactory {
  private ajv2020: Ajv2020 | undefined;
  private ajvDraft07: Ajv | undefined;
  /** Validators by schema text: tools that share a schema share its (costly) compilation. */
  private readonly byText = new Map<string, SchemaValidator>();

  /**
   * {@link compile}, once per distinct schema text for this factory.
   * @throws as {@link compile} does.
   */
  compileShared(schema: object): SchemaValidator {
    const text = JSON.stringify(schema);
    let validator = this.byText.get(text);
    if (!validator) {
      validator = this.compile(schema);
      // Bounded: an app that keeps adding tools with new schemas at run time must not keep every one.
      if (this.byText.size >= MAX_SHARED_VALIDATORS) this.byText.delete(this.byText.keys().next().value!);
      this.byText.set(text, validator);
    }
    return validator;
  }

  /**
   * Compiles `schema`, which is neither changed nor retained beyond the validator.
   *
   * @throws Error when `$schema` names a dialect other than 2020-12 and draft-07, or when the schema is
   * invalid or does not compile (an unresolvable `$ref`, say); the message says why.
   * @throws TypeError when `schema` is not an object.
   */
  compile(schema: object): SchemaValidator {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new TypeError(
        `A JSON Schema must be an object, got ${Array.isArray(schema) ? 'an array' : String(schema)}`,
      );
    }
    const { $schema, $id, $async } = schema as { $schema?: unknown; $id?: unknown; $async?: unknown };
    const [dialect, ajv] = this.instanceFor($schema);
    if ($async) {
      // Ajv would compile a validator that answers with a promise, which any caller here would take as a pass.
      throw new Error(`JSON Schema (${dialect}) is not supported: $async schemas validate asynchronously`);
    }
    if (typeof $id === 'string' && isRegistered(ajv, stripEmptyFragment($id))) {
      // Such as a meta-schema's own $id: compiling under it would replace the meta-schema for every schema.
      throw new Error(`JSON Schema (${dialect}) does not compile: its $id ${JSON.stringify($id)} is reserved`);
    }

    const known = new Set(Object.keys(ajv.refs));
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`JSON Schema (${dialect}) does not compile: ${reason}`, { cause: error });
    } finally {
      forget(ajv, schema, known);
    }

    return (value) => (validate(value) ? OK : { ok: false, problems: toProblems(validate.errors ?? []) });
  }

  private instanceFor($schema: unknown): [dialect: string, ajv: AnyAjv] {
    if ($schema === undefined) return ['2020-12', (this.ajv2020 ??= prepare(new Ajv2020(AJV_OPTIONS)))];
    const uri = typeof $schema === 'string' ? stripEmptyFragment($schema) : undefined;
    if (uri === JSON_SCHEMA_2020_12) return ['2020-12', (this.ajv2020 ??= prepare(new Ajv2020(AJV_OPTIONS)))];
    if (uri === stripEmptyFragment(JSON_SCHEMA_DRAFT_07)) {
      return ['draft-07', (this.ajvDraft07 ??= prepare(new Ajv(AJV_OPTIONS)))];
    }
    throw new Error(
      `Unsupported JSON Schema dialect ${JSON.stringify($schema)}: use ${JSON_SCHEMA_2020_12} (the default) or ${JSON_SCHEMA_DRAFT_07}`,
    );
  }
}

const isRegistered = (ajv: AnyAjv, id: string): boolean =>
  Object.hasOwn(ajv.refs, id) || Object.hasOwn(ajv.schemas, id);

function prepare<A extends AnyAjv>(ajv: A): A {
  formatsPlugin.default(ajv);
  // Compiles the meta-schemas now, so that the refs they add are not mistaken for a user schema's in `forget`.
  // The answer is a boolean (only an `$async` schema gets a promise), and the work is all that is wanted.
  void ajv.validateSchema({});
  return ajv;
}

/**
 * Removes what compiling `schema` registered in the shared instance: the schema itself (kept by object and,
 * when it has one, by `$id`) and the `$id`s of its subschemas. The compiled function does not need them.
 */
function forget(ajv: AnyAjv, schema: object, known: ReadonlySet<string>): void {
  for (const ref of Object.keys(ajv.refs)) {
    if (!known.has(ref)) ajv.removeSchema(ref);
  }
  // Also clears a failed compilation, which Ajv would otherwise return from its cache unvalidated next time.
  ajv.removeSchema(schema);
}

/** `…/schema#` and `…/schema` name the same resource. */
function stripEmptyFragment(uri: string): string {
  return uri.endsWith('#') ? uri.slice(0, -1) : uri;
}

/** What is wrong, one line per problem, in terms a person or a model can act on. */
function toProblems(errors: readonly ErrorObject[]): string[] {
  if (errors.length <= MAX_SCHEMA_PROBLEMS) return errors.map(toProblem);
  const shown = errors.slice(0, MAX_SCHEMA_PROBLEMS - 1).map(toProblem);
  return [...shown, `…and ${errors.length - shown.length} more problems`];
}

function toProblem(error: ErrorObject): string {
  // The path names the value's own property names when the schema lets them be anything: keep it short.
  const where = error.instancePath === '' ? '(root)' : clip(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where}: must NOT have additional property ${quote(params.additionalProperty)}`;
    case 'unevaluatedProperties':
      return `${where}: must NOT have unevaluated property ${quote(params.unevaluatedProperty)}`;
    case 'enum':
      return `${where}: must be one of ${listOf(params.allowedValues as readonly unknown[])}`;
    case 'const':
      return `${where}: must be ${clip(json(params.allowedValue))}`;
    default:
      return `${where}: ${error.message ?? `must pass "${error.keyword}"`}`;
  }
}

const MAX_DETAIL = 200;

/** Property names come from the value checked, which may be hostile: keep them short. */
const quote = (name: unknown): string => `'${clip(String(name))}'`;

/** Stops early: an enum may hold thousands of values, and a problem is only worth its first few. */
function listOf(values: readonly unknown[]): string {
  let list = '';
  for (const value of values) {
    list += (list === '' ? '' : ', ') + json(value);
    if (list.length > MAX_DETAIL) break;
  }
  return clip(list);
}

const json = (value: unknown): string => JSON.stringify(value) ?? String(value);

const clip = (detail: string): string => (detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail);
