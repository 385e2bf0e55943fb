/**
 * Tasks in memory and on Redis: how many tasks a server creates per second (2026-07-28 `tools/call`
 * declaring the tasks extension), what one `tasks/get` costs, the heap a finished task with a 1 KiB
 * result holds; on Redis (a redis-server of its own), the commands and redis-server CPU per creation
 * and per `tasks/get`, and the Redis memory per task record and per KiB of result (`MEMORY USAGE`,
 * and `used_memory` over thousands of tasks, indexes included). Prints the figures; asserts nothing.
 * Rates are wall-clock (client and server in one process): noisy on a shared machine. Commands per
 * operation and memory are exact. Run after `npm run build`:
 *   node --expose-gc dist/bench/tasks.js
 */
import { Injectable, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { McpModule, McpTool, type McpState } from '../src/index.js';
import { redisState } from '../src/redis/index.js';
import { RedisServer } from '../test/utils/redis-server.js';
import { measureRate } from './load.js';
import { MODERN_PROTOCOL_VERSION } from './mcp-client.js';
import { memoryPer, memoryUsage, redisMemory, redisVersion, redisWork } from './redis-stats.js';

const CREATED = 5_000;
const GETS = 20_000;
const KEPT = 5_000;
const CONNECTIONS = 10;
const KIB_BYTES = 1024;

@Injectable()
class BenchTaskTools {
  @McpTool({ name: 'quick_job', description: 'Answers at once, as a task', task: 'optional' })
  quick(): string {
    return 'done';
  }

  @McpTool({ name: 'kib_job', description: 'Answers 1 KiB of text, as a task', task: 'optional' })
  kib(): string {
    // A string of its own per task, as real results are: a shared constant would not be counted.
    return randomBytes(KIB_BYTES / 2).toString('hex');
  }

  @McpTool({
    name: 'sized_job',
    description: 'Answers `kib` KiB of text, as a task',
    input: { type: 'object', properties: { kib: { type: 'integer' } }, required: ['kib'] },
    task: 'optional',
  })
  sized({ kib }: { kib: number }): string {
    return randomBytes((kib * KIB_BYTES) / 2).toString('hex');
  }
}

/** The bench's application: tasks in memory, or in `state` (Redis). */
function benchModule(state?: McpState): Type<unknown> {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'tasks-bench',
        version: '1.0.0',
        tasks: { maxPerPrincipal: Infinity, maxTasks: 1_000_000 },
        ...(state ? { state: { shared: state, secret: 'the tasks bench secret, 32 bytes or more' } } : {}),
      }),
    ],
    providers: [BenchTaskTools],
  })
  class BenchTasksModule {}
  return BenchTasksModule;
}

function body(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      },
    },
  });
}

function headers(method: string, name: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
    'mcp-method': method,
    'mcp-name': name,
  };
}

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Calls a tool as a task, and waits until it finished; its task id. */
async function finishedTask(url: string, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: headers('tools/call', name),
    body: body('tools/call', { name, arguments: args }),
  });
  const { taskId } = ((await answer.json()) as { result: { taskId: string } }).result;
  for (;;) {
    const read = await fetch(url, {
      method: 'POST',
      headers: headers('tasks/get', taskId),
      body: body('tasks/get', { taskId }),
    });
    const { status } = ((await read.json()) as { result: { status: string } }).result;
    if (status !== 'working') return taskId;
  }
}

interface Figures {
  readonly create: { perSecond: number; failures: number };
  readonly get: { perSecond: number; failures: number };
  readonly kept: { perSecond: number; failures: number };
  readonly heapPerTask: number;
}

async function measure(state: McpState | undefined, redis: RedisServer | undefined): Promise<Figures> {
  const app = await NestFactory.create(benchModule(state), { bodyParser: false, logger: false });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as { address(): AddressInfo };
  const url = `http://127.0.0.1:${server.address().port}/mcp`;

  const workBefore = redis && (await redisWork(redis));
  const create = await measureRate(
    { url, headers: headers('tools/call', 'quick_job'), body: body('tools/call', { name: 'quick_job' }) },
    CREATED,
    CONNECTIONS,
  );
  const workCreated = redis && (await redisWork(redis));

  const taskId = await finishedTask(url, 'quick_job');
  const workGetBefore = redis && (await redisWork(redis));
  const get = await measureRate(
    { url, headers: headers('tasks/get', taskId), body: body('tasks/get', { taskId }) },
    GETS,
    CONNECTIONS,
  );
  const workGot = redis && (await redisWork(redis));

  const before = heapAfterGc();
  const memoryBefore = redis && (await redisMemory(redis));
  const kept = await measureRate(
    { url, headers: headers('tools/call', 'kib_job'), body: body('tools/call', { name: 'kib_job' }) },
    KEPT,
    CONNECTIONS,
  );
  const memoryAfter = redis && (await redisMemory(redis));
  const after = heapAfterGc();

  if (redis && workBefore && workCreated && workGetBefore && workGot && memoryBefore && memoryAfter) {
    // The keys of sample tasks: finished, with results of 0, 1 and 16 KiB.
    const key = (id: string): string => `${REDIS_PREFIX}{g}:t:${id}`;
    const small = await memoryUsage(redis, key(await finishedTask(url, 'quick_job')));
    const one = await memoryUsage(redis, key(await finishedTask(url, 'sized_job', { kib: 1 })));
    const sixteen = await memoryUsage(redis, key(await finishedTask(url, 'sized_job', { kib: 16 })));
    const perTask = memoryPer(memoryBefore, memoryAfter, KEPT);
    console.log(`Tasks on Redis ${await redisVersion(redis)} (one instance, Express)`);
    console.log(
      `  per task creation:  ${((workCreated.commands - workBefore.commands) / CREATED).toFixed(1)} Redis commands (script steps included), ` +
        `${((workCreated.cpuMicros - workBefore.cpuMicros) / CREATED).toFixed(0)} µs of redis-server CPU ` +
        `(creation, status writes and the end of a task that answers at once)`,
    );
    console.log(
      `  per tasks/get:      ${((workGot.commands - workGetBefore.commands) / GETS).toFixed(1)} Redis commands, ` +
        `${((workGot.cpuMicros - workGetBefore.cpuMicros) / GETS).toFixed(0)} µs of redis-server CPU`,
    );
    console.log(
      `  MEMORY USAGE of a finished task's record: ${small} B (result "done"), ${one} B (1 KiB result), ` +
        `${sixteen} B (16 KiB result): ${((sixteen - one) / 15).toFixed(0)} B per KiB of result`,
    );
    console.log(
      `  used_memory per finished task with a 1 KiB result, its indexes included: ` +
        `${(perTask.stored / 1024).toFixed(2)} KiB (${KEPT} tasks)`,
    );
  }
  await app.close();
  return { create, get, kept, heapPerTask: (after - before) / KEPT };
}

function print(title: string, figures: Figures): void {
  console.log(title);
  console.log(
    `  task creation:      ${figures.create.perSecond.toFixed(0)} tasks/s (${CREATED} over ${CONNECTIONS} connections)`,
  );
  console.log(
    `  tasks/get:          ${figures.get.perSecond.toFixed(0)} requests/s, ${(1e6 / figures.get.perSecond).toFixed(0)} µs each at ${CONNECTIONS} connections`,
  );
  console.log(
    `  heap per finished task with a 1 KiB result: ${(figures.heapPerTask / 1024).toFixed(2)} KiB (${KEPT} tasks)`,
  );
  const failures = figures.create.failures + figures.get.failures + figures.kept.failures;
  if (failures > 0) console.log(`  ${failures} request(s) failed`);
}

const REDIS_PREFIX = 'tasks-bench:';

print('Tasks in memory (2026-07-28 extension, Express, one process)', await measure(undefined, undefined));

const redis = await RedisServer.start();
const client = new Redis(redis.url);
try {
  const figures = await measure(redisState({ client, keyPrefix: REDIS_PREFIX }), redis);
  print('Tasks on Redis (rates, client and server in one process)', figures);
} finally {
  client.disconnect();
  await redis.stop();
}
console.log('Rates are wall-clock on whatever else the machine runs: noisy; commands and memory are exact.');
