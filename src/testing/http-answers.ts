import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { HttpReply } from './in-process-http.js';
import { McpHttpError } from './mcp-http-error.js';
import { sseEvents } from './sse-events.js';

/** What the kit keeps of a refusal's body: enough to read its JSON-RPC error and show it. */
const REFUSAL_BODY_CHARS = 4096;

/** The `Accept` of every POST: both answers MCP servers may give. */
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * Reads the JSON-RPC messages of an answer as they arrive, handing each to `onMessage`: one JSON
 * body (a message or a batch), or the `data` of each SSE event. Nothing for 202 and 204.
 *
 * An HTTP refusal (4xx, 5xx) throws {@link McpHttpError}, unless its body is a JSON-RPC error that
 * answers `requestId` and the status is not 401 or 403: that is the protocol's answer to the request
 * (the 2026-07-28 era sends -32601 as 404 and header mismatches as 400), handed on like any other.
 * A refusal of the caller (401, 403) always throws: its status and challenge are what a test checks.
 * @throws McpHttpError, or an Error for a body that is not JSON.
 */
export async function readAnswer(
  reply: HttpReply,
  requestId: RequestId | undefined,
  onMessage: (message: JSONRPCMessage) => void,
): Promise<void> {
  if (reply.status >= 400) return readRefusal(reply, requestId, onMessage);
  const type = reply.headers['content-type'] ?? '';
  if (type.includes('text/event-stream')) {
    for await (const event of sseEvents(reply.body)) {
      if (event.data.trim() !== '') onMessage(parse(event.data) as JSONRPCMessage);
    }
    return;
  }
  const text = await readText(reply, Infinity);
  if (!type.includes('application/json') || text.trim() === '') return;
  const parsed = parse(text);
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) onMessage(message as JSONRPCMessage);
}

async function readRefusal(
  reply: HttpReply,
  requestId: RequestId | undefined,
  onMessage: (message: JSONRPCMessage) => void,
): Promise<void> {
  const text = await readText(reply, REFUSAL_BODY_CHARS);
  if (requestId !== undefined && reply.status !== 401 && reply.status !== 403) {
    const answer = tryParse(text) as { jsonrpc?: unknown; id?: unknown; error?: unknown } | undefined;
    if (answer?.jsonrpc === '2.0' && answer.id === requestId && typeof answer.error === 'object') {
      onMessage(answer as JSONRPCMessage);
      return;
    }
  }
  throw new McpHttpError(reply.status, headersOf(reply), text);
}

/** The body as text, up to `limit` characters (the rest is read and dropped). */
async function readText(reply: HttpReply, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of reply.body as AsyncIterable<Buffer>) {
    if (text.length < limit) text += decoder.decode(chunk, { stream: true });
  }
  return text.length > limit ? text.slice(0, limit) : text;
}

/** Reads and drops what remains of an answer. */
export async function drain(reply: HttpReply): Promise<void> {
  await readText(reply, 0);
}

function headersOf(reply: HttpReply): Record<string, string> {
  return Object.fromEntries(
    Object.entries(reply.headers)
      .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
  );
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`The MCP endpoint answered with a body that is not JSON: ${text.slice(0, 200)}`);
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
