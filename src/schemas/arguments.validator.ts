import type { Type } from '@nestjs/common';
import { validate, type ValidationError, type ValidatorOptions } from 'class-validator';
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
  return argumentsValidator(dto)(args);
}

/**
 * {@link validateArguments} for one DTO, with how its instances are made decided once (see
 * {@link dtoInstantiator}): what a tool or prompt keeps for its calls.
 */
export function argumentsValidator<T extends object>(
  dto: Type<T>,
): (args: Record<string, unknown>) => Promise<ArgumentsCheck<T>> {
  const instantiate = dtoInstantiator(dto);
  return (args) => checked(instantiate, args);
}

async function checked<T extends object>(
  instantiate: DtoInstantiator<T>,
  args: Record<string, unknown>,
): Promise<ArgumentsCheck<T>> {
  // Keys the instance could not take (`constructor`, `__proto__`, a method's name...) are never seen
  // by the whitelist: refused here, as the advertised `additionalProperties: false` promises.
  const { instance, dropped } = instantiate(args);
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length === 0 && dropped.length === 0) return { ok: true, value: instance };
  return {
    ok: false,
    problems: [...flatten(errors, ''), ...dropped.map((key) => `${key}: property ${key} should not exist`)],
  };
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
