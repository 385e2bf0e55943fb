import type { McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import type { SharedState, StoredEventBounds } from '../interfaces/mcp-shared-state.interface.js';
import { encodeMessage } from '../protocol/json-rpc.codec.js';
import { errorResponse, ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { ClientSession } from './client-session.js';
import { streamProducer } from './event-id.js';

/** What a resume of another instance's POST stream gets here. */
export interface ForeignStreamReplay {
  /** Stored events after the client's position (and, when the producer died, the answers it owed). */
  readonly events: readonly McpStoredEvent[];
  /** Whether the stream said all it will: otherwise the client comes back later (SSE polling). */
  readonly finished: boolean;
}

/** What a client hears for a request whose instance stopped before answering it. */
export const instanceLost = (): JsonRpcError =>
  new JsonRpcError(
    ErrorCode.ServerError,
    'The server instance running this request stopped before answering; send the request again',
    { reason: 'instance-lost' },
  );

/**
 * A client resumes (`Last-Event-ID`) a POST stream that another instance produces. Its stored
 * events are replayed from the shared state. While the producer lives, the connection then ends
 * and the client polls again (it reaches the producer, or more events, on a later try); once the
 * producer is dead (its lease lapsed), the requests it owed answers to are answered here with an
 * error, stored first, so the client hears an end in bounded time rather than waiting forever.
 */
export async function replayForeignStream(
  shared: SharedState,
  bounds: StoredEventBounds,
  session: ClientSession,
  streamId: string,
  afterSeq: number,
): Promise<ForeignStreamReplay> {
  const id = session.id;
  const [marked, stored] = await Promise.all([
    shared.streamRequests(id, streamId),
    shared.replayEvents(id, streamId, afterSeq),
  ]);
  if (marked === undefined) return { events: stored, finished: true };
  const producer = streamProducer(streamId)!;
  if ((await shared.alive([producer])).has(producer)) return { events: stored, finished: false };

  const answered = new Set((await shared.replayEvents(id, streamId, -1)).flatMap((event) => answeredId(event.data)));
  const lost: McpStoredEvent[] = [];
  for (const requestId of requestIdsOf(marked)) {
    if (answered.has(JSON.stringify(requestId))) continue;
    const data = encodeMessage(errorResponse(requestId, instanceLost()));
    // After the client's position whatever this instance's clock says: a resume must not skip it.
    lost.push({ streamId, seq: Math.max(afterSeq + 1 + lost.length, session.streams.nextSeq()), data });
  }
  // Stored before they are written: a client that loses this connection too finds them again.
  // A resume waits on these writes: they are not background writes.
  for (const event of lost) await shared.appendEvent(id, event, bounds, true);
  await shared.markStream(id, streamId, undefined);
  return { events: [...stored, ...lost], finished: true };
}

function requestIdsOf(json: string): RequestId[] {
  try {
    const ids: unknown = JSON.parse(json);
    return Array.isArray(ids)
      ? ids.filter((id): id is RequestId => typeof id === 'string' || typeof id === 'number')
      : [];
  } catch {
    return [];
  }
}

/** The id of the response an event carries (as JSON text), if it carries one. */
function answeredId(data: string): string[] {
  try {
    const message = JSON.parse(data) as Record<string, unknown> | null;
    if (
      message &&
      typeof message === 'object' &&
      !('method' in message) &&
      ('result' in message || 'error' in message)
    ) {
      return [JSON.stringify(message.id)];
    }
  } catch {
    // Not JSON: it answers nothing.
  }
  return [];
}
