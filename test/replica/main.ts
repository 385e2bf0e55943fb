/**
 * One instance of the multi-instance tests in a process of its own, so that a test can kill it
 * (SIGKILL: no shutdown hook runs, its lease just stops being renewed). Reads MCP_REDIS_URL,
 * MCP_KEY_PREFIX and MCP_REPLICA_LEASE_MS (and MCP_REPLICA_APP: `tasks` serves the task tools of
 * test/fixtures/tasks.fixture.ts instead of the replicas fixture); listens on a free loopback port and prints
 * `listening <port>`.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { redisState } from '../../src/redis/index.js';
import { ReplicasModule } from '../fixtures/replicas.module.js';
import { tasksApp, TASKS_STATE_SECRET } from '../fixtures/tasks.fixture.js';

async function main(): Promise<void> {
  const client = new Redis(process.env.MCP_REDIS_URL!);
  const state = redisState({
    client,
    keyPrefix: process.env.MCP_KEY_PREFIX,
    replicaLeaseMs: Number(process.env.MCP_REPLICA_LEASE_MS ?? 5_000),
  });
  class TasksReplica {}
  Module(tasksApp({ state: { shared: state, secret: TASKS_STATE_SECRET } }))(TasksReplica);
  const root = process.env.MCP_REPLICA_APP === 'tasks' ? TasksReplica : ReplicasModule.register(state);
  const app = await NestFactory.create(root, { logger: false, bodyParser: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`listening ${port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
