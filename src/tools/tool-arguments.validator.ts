import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError, type ValidatorOptions } from 'class-validator';

/** Unknown properties are errors, not silently dropped: a model that misspells a field must hear about it. */
const VALIDATOR_OPTIONS: ValidatorOptions = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
});

/** The outcome of validating tool arguments against a DTO. */
export type ArgumentsCheck<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: string[] };

/**
 * Transforms plain arguments into an instance of `dto` and validates it.
 * Problems are listed one per failing property and constraint, with dotted paths for nested ones.
 */
export async function validateArguments<T extends object>(
  dto: Type<T>,
  args: Record<string, unknown>,
): Promise<ArgumentsCheck<T>> {
  const instance = plainToInstance(dto, args);
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length === 0) return { ok: true, value: instance };
  return { ok: false, problems: flatten(errors, '') };
}

function flatten(errors: readonly ValidationError[], prefix: string): string[] {
  const problems: string[] = [];
  for (const error of errors) {
    const path = prefix + error.property;
    for (const message of Object.values(error.constraints ?? {})) problems.push(`${path}: ${message}`);
    if (error.children?.length) problems.push(...flatten(error.children, `${path}.`));
  }
  return problems;
}
