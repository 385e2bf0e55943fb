// Express, Nest's default platform, without Nest's JSON body parser (mcp42 reads its bodies itself,
// and warns at bootstrap of a parser in front of its endpoint).
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { TestingModule } from '@nestjs/testing';

/** The app of `module` on Express, logging warnings and errors only. */
export function createApp(module: Type<unknown>): Promise<INestApplication> {
  return NestFactory.create(module, { bodyParser: false, logger: ['error', 'warn'] });
}

/** The app of a testing module, made as {@link createApp} makes it; the test initialises it. */
export function createTestApp(moduleRef: TestingModule): INestApplication {
  return moduleRef.createNestApplication({ bodyParser: false, logger: ['error', 'warn'] });
}
