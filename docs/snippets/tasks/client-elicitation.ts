import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

// #region sdk-input
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const client = new Client({ name: 'admin-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });

// A request from a task carries the task's id in its _meta: the client can tell the user which one asks.
client.setRequestHandler(ElicitRequestSchema, (request) => {
  const task = (request.params._meta as Record<string, { taskId?: string }> | undefined)?.[RELATED_TASK];
  console.log(`task ${task?.taskId ?? '-'} asks: ${request.params.message}`);
  return { action: 'accept', content: { confirm: true } };
});
// Optional for the server, so never relied on: the client polls tasks/get anyway.
client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
  console.log(`task ${notification.params.taskId} is ${notification.params.status}`);
});
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));

// The task goes input_required; the SDK then opens tasks/result, where the elicitation arrives.
for await (const message of client.experimental.tasks.callToolStream(
  { name: 'clear_forecast_cache', arguments: {} },
  CallToolResultSchema,
  { task: { ttl: 600_000 } },
)) {
  if (message.type === 'result') console.log(message.result.content);
  if (message.type === 'error') console.error(message.error);
}
// #endregion sdk-input
await client.close();
