// Fastify, through @nestjs/platform-fastify.
import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { TestingModule } from '@nestjs/testing';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

/** The app of `module` on Fastify, logging warnings and errors only. */
export function createApp(module: Type<unknown>): Promise<NestFastifyApplication> {
  return NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), { logger: ['error', 'warn'] });
}

/** The app of a testing module, made as {@link createApp} makes it; the test initialises it. */
export function createTestApp(moduleRef: TestingModule): NestFastifyApplication {
  return moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: ['error', 'warn'] });
}
