// Express, Nest's default platform, without Nest's JSON body parser (mcp42 reads its bodies itself,
// and warns at bootstrap of a parser in front of its endpoint).
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The app of `module` on Express, logging warnings and errors only. */
export function createApp(module: Type<unknown>): Promise<INestApplication> {
  return NestFactory.create(module, { bodyParser: false, logger: ['error', 'warn'] });
}
