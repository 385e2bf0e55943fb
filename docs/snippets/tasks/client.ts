import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

// #region sdk
const client = new Client({ name: 'report-client', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));

// 2025-11-25 tasks: the SDK sends params.task, polls tasks/get, then fetches tasks/result.
const stream = client.experimental.tasks.callToolStream(
  { name: 'build_sales_report', arguments: { quarter: 'Q3' } },
  CallToolResultSchema,
  { task: { ttl: 60_000 } },
);
for await (const message of stream) {
  if (message.type === 'taskCreated') console.log('task', message.task.taskId);
  if (message.type === 'taskStatus') console.log(message.task.status, message.task.statusMessage ?? '');
  if (message.type === 'result') console.log(message.result.content);
  if (message.type === 'error') console.error(message.error);
}
const { tasks } = await client.experimental.tasks.listTasks();
console.log(`${tasks.length} task(s) of mine`);
// #endregion sdk
await client.close();
