import type { Type } from '@nestjs/common';
import { Expose, plainToInstance } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';

/** Arguments turned into an instance of their DTO, and the keys that did not make it onto it. */
export interface DtoInstance<T> {
  readonly instance: T;
  readonly dropped: readonly string[];
}

/** Turns plain arguments into an instance of one DTO. */
export type DtoInstantiator<T> = (args: Record<string, unknown>) => DtoInstance<T>;

/** The maps class-transformer keeps its decorators' metadata in, per class (its own private fields). */
const METADATA_MAPS = ['_typeMetadatas', '_transformMetadatas', '_exposeMetadatas', '_excludeMetadatas'] as const;

/**
 * How arguments become an instance of `dto`. A DTO that no class-transformer decorator touches
 * (no `@Type`, `@Transform`, `@Expose`, `@Exclude` on it or its ancestors) is built directly: its
 * constructor, then each key copied as `plainToInstance` would copy it (nested objects and arrays
 * copied too), at a fraction of the cost, since class-transformer looks up metadata for every key
 * of every call. Any other DTO goes through `plainToInstance`. Decided at the first call, when every
 * decorator has run.
 */
export function dtoInstantiator<T extends object>(dto: Type<T>): DtoInstantiator<T> {
  let decided: DtoInstantiator<T> | undefined;
  return (args) => {
    decided ??= isPlainDto(dto) ? (plain) => copiedInstance(dto, plain) : (plain) => transformedInstance(dto, plain);
    return decided(args);
  };
}

function transformedInstance<T extends object>(dto: Type<T>, args: Record<string, unknown>): DtoInstance<T> {
  const instance = plainToInstance(dto, args);
  // class-transformer silently skips some keys (`constructor`, `__proto__`...), so the whitelist never
  // sees them: they are reported, as the advertised `additionalProperties: false` promises.
  return { instance, dropped: Object.keys(args).filter((key) => !Object.hasOwn(instance, key)) };
}

/**
 * Whether the storage read here is the one this module's decorators write to. A bundler that picks
 * class-transformer's ES build (its `module` field) gives the app's decorators another copy of the
 * storage than `cjs/storage.js`: then no DTO could be told plain, and every one goes through
 * `plainToInstance`. A fact of how the process loaded class-transformer, so asked once (one probe
 * class is left in the storage), whatever the applications.
 */
let storageShared: boolean | undefined;

function storageSeesDecorators(storage: Record<string, unknown>): boolean {
  if (storageShared === undefined) {
    class Probe {
      probe?: unknown;
    }
    Expose()(Probe.prototype, 'probe');
    const map = storage._exposeMetadatas;
    storageShared = map instanceof Map && map.has(Probe);
  }
  return storageShared;
}

/** Whether no class-transformer metadata applies to `dto` (false when its storage is not as expected). */
function isPlainDto(dto: Type<unknown>): boolean {
  const storage = defaultMetadataStorage as unknown as Record<string, unknown>;
  if (!storageSeesDecorators(storage)) return false;
  const classes: unknown[] = [];
  for (let target: unknown = dto; typeof target === 'function' && target !== Function.prototype;) {
    classes.push(target);
    target = Object.getPrototypeOf(target);
  }
  return METADATA_MAPS.every((name) => {
    const map = storage[name];
    return map instanceof Map && classes.every((target) => !map.has(target));
  });
}

/**
 * What `plainToInstance` makes of a plain object for a DTO without metadata: `new dto()`, then every
 * own key but `__proto__`, `constructor`, a method, and a property of the prototype without a setter;
 * values copied (plain objects and arrays deeply, primitives as they are).
 */
function copiedInstance<T extends object>(dto: Type<T>, args: Record<string, unknown>): DtoInstance<T> {
  const instance = new dto() as Record<string, unknown>;
  const prototype = dto.prototype as object;
  let dropped: string[] | undefined;
  for (const key of Object.keys(args)) {
    if (key === '__proto__' || key === 'constructor' || typeof instance[key] === 'function') {
      (dropped ??= []).push(key);
      continue;
    }
    // Any property of the prototype itself without a setter (a getter, a method, a value) is skipped.
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
    if (descriptor && !descriptor.set) {
      (dropped ??= []).push(key);
      continue;
    }
    instance[key] = copied(args[key]);
  }
  return { instance: instance as T, dropped: dropped ?? NOTHING_DROPPED };
}

const NOTHING_DROPPED: readonly string[] = Object.freeze([]);

/** A JSON value as class-transformer copies one it has no type for. */
function copied(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copied);
  const copy: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    // Skipped as class-transformer skips them: a key a plain object inherits a method or accessor for.
    if (key === '__proto__' || key === 'constructor' || typeof copy[key] === 'function') continue;
    copy[key] = copied(source[key]);
  }
  return copy;
}
