import 'reflect-metadata';
import type { ModuleMetadata } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpDefinitionError } from '../../src/index.js';

/** Where an application failed to start: building its module graph, or `app.init()`. */
export interface BootstrapFailure {
  readonly stage: 'compile' | 'init';
  readonly error: Error;
}

/** Compiles and initializes an application that must fail to start; returns where and why. */
export async function bootstrapFailure(metadata: ModuleMetadata): Promise<BootstrapFailure> {
  let failure: BootstrapFailure | undefined;
  let moduleRef: TestingModule;
  try {
    moduleRef = await Test.createTestingModule(metadata).compile();
  } catch (error) {
    failure = { stage: 'compile', error: error as Error };
    expect(error).toBeInstanceOf(Error);
    return failure;
  }
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
  try {
    await app.init();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    failure = { stage: 'init', error: error as Error };
  } finally {
    await app.close().catch(() => undefined);
  }
  if (failure === undefined) throw new Error('the application started, but it was expected to fail');
  return failure;
}

/** The error of an application that must fail in `app.init()`, where tools are discovered. */
export async function initError(metadata: ModuleMetadata): Promise<Error> {
  const failure = await bootstrapFailure(metadata);
  expect(failure.stage).toBe('init');
  return failure.error;
}

/**
 * The McpDefinitionError of an application whose decorated items are defined wrong: it fails in
 * `app.init()`, where they are discovered, with that class of error.
 */
export async function definitionError(metadata: ModuleMetadata): Promise<McpDefinitionError> {
  const error = await initError(metadata);
  expect(error).toBeInstanceOf(McpDefinitionError);
  return error as McpDefinitionError;
}
