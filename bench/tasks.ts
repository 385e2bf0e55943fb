/**
 * Tasks in memory: how many tasks a server creates per second (2026-07-28 `tools/call` declaring the
 * tasks extension), what one `tasks/get` costs, and the heap a finished task with a 1 KiB result
 * holds. Prints the figures; asserts nothing. Run after `npm run build`:
 *   node --expose-gc dist/bench/tasks.js
 * (Tasks kept in Redis are not implemented yet: no figures for them.)
 */
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { McpModule, McpTool } from '../src/index.js';
import { measureRate } from './load.js';
import { MODERN_PROTOCOL_VERSION } from './mcp-client.js';

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
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'tasks-bench',
      version: '1.0.0',
      tasks: { maxPerPrincipal: Infinity, maxTasks: 1_000_000 },
    }),
  ],
  providers: [BenchTaskTools],
})
class BenchTasksModule {}

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

const app = await NestFactory.create(BenchTasksModule, { bodyParser: false, logger: false });
await app.listen(0, '127.0.0.1');
const server = app.getHttpServer() as { address(): AddressInfo };
const url = `http://127.0.0.1:${server.address().port}/mcp`;

const create = await measureRate(
  { url, headers: headers('tools/call', 'quick_job'), body: body('tools/call', { name: 'quick_job' }) },
  CREATED,
  CONNECTIONS,
);

const created = (await (
  await fetch(url, {
    method: 'POST',
    headers: headers('tools/call', 'quick_job'),
    body: body('tools/call', { name: 'quick_job' }),
  })
).json()) as { result: { taskId: string } };
const { taskId } = created.result;
const get = await measureRate(
  { url, headers: headers('tasks/get', taskId), body: body('tasks/get', { taskId }) },
  GETS,
  CONNECTIONS,
);

const before = heapAfterGc();
const kept = await measureRate(
  { url, headers: headers('tools/call', 'kib_job'), body: body('tools/call', { name: 'kib_job' }) },
  KEPT,
  CONNECTIONS,
);
const after = heapAfterGc();
await app.close();

console.log('Tasks in memory (2026-07-28 extension, Express, one process)');
console.log(
  `  task creation:      ${create.perSecond.toFixed(0)} tasks/s (${CREATED} over ${CONNECTIONS} connections)`,
);
console.log(
  `  tasks/get:          ${get.perSecond.toFixed(0)} requests/s, ${(1e6 / get.perSecond).toFixed(0)} µs each at ${CONNECTIONS} connections`,
);
console.log(
  `  heap per finished task with a 1 KiB result: ${((after - before) / KEPT / 1024).toFixed(2)} KiB (${KEPT} tasks)`,
);
const failures = create.failures + get.failures + kept.failures;
if (failures > 0) console.log(`  ${failures} request(s) failed`);
