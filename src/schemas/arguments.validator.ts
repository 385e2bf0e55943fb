import type { Type } from '@nestjs/common';
import {
  getFromContainer,
  getMetadataStorage,
  validate,
  Validator,
  type ValidationError,
  type ValidatorOptions,
} from 'class-validator';
import { ValidationExecutor } from 'class-validator/cjs/validation/ValidationExecutor.js';
import { dtoInstantiator, type DtoInstantiator } from './dto-instance.js';

/**
 * Unknown properties are errors, not silently dropped: a model that misspells a field must hear about it.
 * `forbidUnknownValues` is off because the whitelist already refuses every property of an object
 * without metadata (a nested value missing `@Type()`), while it would also refuse `{}` for a DTO
 * that declares no property at all.
 */
const VALIDATOR_OPTIONS: ValidatorOptions = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
});

/** The outcome of validating tool arguments against a DTO. */
export type ArgumentsCheck<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: string[] };

/**
 * Turns plain arguments into an instance of `dto` and validates it.
 * Problems are listed one per failing property and constraint, with dotted paths for nested ones.
 */
export function validateArguments<T extends object>(
  dto: Type<T>,
  args: Record<string, unknown>,
): Promise<ArgumentsCheck<T>> {
  try {
    return Promise.resolve(argumentsValidator(dto)(args));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * {@link validateArguments} for one DTO, with how its instances are made decided once (see
 * {@link dtoInstantiator}): what a tool or prompt keeps for its calls. Its answer comes at once
 * when no constraint answered with a promise (see {@link DtoValidation}).
 */
export function argumentsValidator<T extends object>(
  dto: Type<T>,
): (args: Record<string, unknown>) => ArgumentsCheck<T> | Promise<ArgumentsCheck<T>> {
  const instantiate = dtoInstantiator(dto);
  const validation = new DtoValidation();
  return (args) => checked(instantiate, validation, args);
}

function checked<T extends object>(
  instantiate: DtoInstantiator<T>,
  validation: DtoValidation,
  args: Record<string, unknown>,
): ArgumentsCheck<T> | Promise<ArgumentsCheck<T>> {
  // Keys the instance could not take (`constructor`, `__proto__`, a method's name...) are never seen
  // by the whitelist: refused here, as the advertised `additionalProperties: false` promises.
  const { instance, dropped } = instantiate(args);
  const errors = validation.run(instance);
  return errors instanceof Promise
    ? errors.then((settled) => outcome(instance, settled, dropped))
    : outcome(instance, errors, dropped);
}

function outcome<T>(instance: T, errors: ValidationError[], dropped: readonly string[]): ArgumentsCheck<T> {
  if (errors.length === 0 && dropped.length === 0) return { ok: true, value: instance };
  return {
    ok: false,
    problems: [...flatten(errors, ''), ...dropped.map((key) => `${key}: property ${key} should not exist`)],
  };
}

/** The part of class-validator's storage its executor reads per validated object. */
interface StorageView {
  getTargetValidationMetadatas(target: unknown, schema: unknown, ...rest: unknown[]): unknown[];
  groupByPropertyName(metadatas: unknown[]): Record<string, unknown[]>;
}

/** What the storage answered for one class, and what it was made from. */
interface Looked {
  readonly schema: unknown;
  readonly metadatas: unknown[];
  /** How many classes had metadata then. */
  readonly classes: number;
  /** The classes whose metadata applied (the class and its ancestors), and how many each had then. */
  readonly sources: readonly (readonly [unknown, number])[];
}

/**
 * class-validator's `validate()`, run by its own executor with the same options, answering at once
 * when no constraint answered with a promise, and reading the metadata of each class once.
 *
 * `validate()` runs the executor, then waits for the promises it collected (async constraints, a
 * custom constraint that returns a promise without saying so, `@ValidatePromise`) before stripping
 * empty errors. Here the same executor runs; with promises collected the answer waits for them as
 * `validate()` does, without any it is the same stripping done at once: the same problems either way.
 *
 * For every object it validates, class-validator looks up the metadata of its class by scanning
 * every class that has validation metadata (for ancestors), on every call: an application with many
 * DTOs pays for all of them. That lookup is kept here per class, and made again when a class got
 * metadata since, or one whose metadata applied got more (decorators applied late). When
 * class-validator's executor or storage does not have the members used here (another version),
 * `validate()` itself runs. The executor is imported from class-validator's CommonJS files, as
 * class-transformer's storage is in `dto-instance.ts`: a release that closed them with an `exports`
 * map would fail at import, not fall back (both libraries' supported ranges ship them).
 */
class DtoValidation {
  /** class-validator's own validator and storage view, or null to call `validate()`; decided at the first call. */
  private own: { readonly validator: Validator; readonly view: StorageView } | null | undefined;

  run(instance: object): ValidationError[] | Promise<ValidationError[]> {
    const own = (this.own ??= ownExecution());
    if (!own) return validate(instance, VALIDATOR_OPTIONS);
    const executor = new ValidationExecutor(own.validator, VALIDATOR_OPTIONS);
    (executor as unknown as { metadataStorage: StorageView }).metadataStorage = own.view;
    const errors: ValidationError[] = [];
    // As `validate(instance, options)` calls it: no schema name.
    executor.execute(instance, undefined as unknown as string, errors);
    if (executor.awaitingPromises.length === 0) return executor.stripEmptyErrors(errors);
    return Promise.all(executor.awaitingPromises).then(() => executor.stripEmptyErrors(errors));
  }
}

/**
 * The validator `validate()` would use, and the storage view: none when `validate()` would run
 * another validator (one a container given to `useContainer()` provides) or the storage is not as known.
 */
function ownExecution(): { readonly validator: Validator; readonly view: StorageView } | null {
  const validator = getFromContainer(Validator);
  if (Object.getPrototypeOf(validator) !== Validator.prototype || !executorAsKnown(validator)) return null;
  const view = storageView();
  return view && { validator, view };
}

/** Whether class-validator's executor has the members read and replaced here (another version may not). */
function executorAsKnown(validator: Validator): boolean {
  if (typeof ValidationExecutor !== 'function') return false;
  const probe = new ValidationExecutor(validator, VALIDATOR_OPTIONS) as unknown as Record<string, unknown>;
  return (
    Array.isArray(probe.awaitingPromises) &&
    typeof probe.metadataStorage === 'object' &&
    typeof probe.execute === 'function' &&
    typeof probe.stripEmptyErrors === 'function'
  );
}

/**
 * class-validator's global storage, with its lookups per class remembered (see {@link DtoValidation}),
 * or null when it is not the storage this code knows.
 */
function storageView(): StorageView | null {
  const storage = getMetadataStorage() as unknown as StorageView & { readonly validationMetadatas?: unknown };
  const byClass = storage.validationMetadatas;
  if (
    !(byClass instanceof Map) ||
    typeof storage.getTargetValidationMetadatas !== 'function' ||
    typeof storage.groupByPropertyName !== 'function'
  ) {
    return null;
  }
  const classes = byClass as Map<unknown, readonly unknown[]>;
  const looked = new WeakMap<object, Looked>();
  const grouped = new WeakMap<unknown[], Record<string, unknown[]>>();
  const lookUp = (target: unknown, schema: unknown, rest: unknown[]): unknown[] =>
    storage.getTargetValidationMetadatas(target, schema, ...rest);
  return Object.create(storage, {
    getTargetValidationMetadatas: {
      value(target: unknown, schema: unknown, ...rest: unknown[]): unknown[] {
        if (typeof target !== 'function') return lookUp(target, schema, rest);
        const known = looked.get(target);
        if (known !== undefined && known.schema === schema && unchanged(known, classes)) return known.metadatas;
        const metadatas = lookUp(target, schema, rest);
        looked.set(target, { schema, metadatas, classes: classes.size, sources: sourcesOf(target, classes) });
        return metadatas;
      },
    },
    groupByPropertyName: {
      // The executor groups the list it was just given: grouped once per list (it only reads it).
      value(metadatas: unknown[]): Record<string, unknown[]> {
        let groups = grouped.get(metadatas);
        if (!groups) grouped.set(metadatas, (groups = storage.groupByPropertyName(metadatas)));
        return groups;
      },
    },
  }) as StorageView;
}

/** The classes whose metadata class-validator applies to `target`'s instances, with how many each has. */
function sourcesOf(target: { prototype: unknown }, classes: Map<unknown, readonly unknown[]>): [unknown, number][] {
  const sources: [unknown, number][] = [];
  for (const [key, metadatas] of classes) {
    if (key === target || (typeof key === 'function' && target.prototype instanceof key)) {
      sources.push([key, metadatas.length]);
    }
  }
  return sources;
}

function unchanged(known: Looked, classes: Map<unknown, readonly unknown[]>): boolean {
  if (classes.size !== known.classes) return false;
  for (const [key, count] of known.sources) if (classes.get(key)?.length !== count) return false;
  return true;
}

function flatten(errors: readonly ValidationError[], prefix: string): string[] {
  const problems: string[] = [];
  for (const error of errors) {
    // A problem with the value itself (not one of its properties) has no property name.
    const path = error.property === undefined ? prefix.slice(0, -1) || '(arguments)' : prefix + error.property;
    for (const message of Object.values(error.constraints ?? {})) problems.push(`${path}: ${message}`);
    if (error.children?.length) problems.push(...flatten(error.children, `${path}.`));
  }
  return problems;
}
