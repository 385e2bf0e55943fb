import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { from } from 'rxjs';
import { McpStateUnavailableError } from '../../errors/mcp-state-unavailable.error.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS, MCP_SESSION_ID_HEADER } from '../../mcp.constants.js';
import type { ClientSession } from '../../session/client-session.js';
import { STANDALONE_STREAM_ID } from '../../session/event-id.js';
import type { StreamEvent } from '../../session/session-stream.js';
import { SharedSessions } from '../../session/shared-sessions.js';
import { writeEmpty, writeStateUnavailable, writeTransportError } from '../responses/http-responses.js';
import { SseWriter } from '../responses/sse.writer.js';
import { pumpToConnection } from '../responses/stream-pump.js';

/** A position a client resumes from (`Last-Event-ID`). */
interface ResumePoint {
  readonly streamId: string;
  readonly seq: number;
}

/**
 * GET with shared state: the standalone stream is held by the instance its connection reached (any
 * instance's messages for it come here through the shared state), and a POST stream another
 * instance produces is replayed from the shared state. A POST stream this instance produces is
 * resumed as in one process (`handles` says false).
 */
@Injectable()
export class SharedGet {
  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly shared: SharedSessions,
  ) {}

  /** Whether this GET is served here rather than as in one process. */
  handles(resumeFrom: ResumePoint | undefined): boolean {
    return this.shared.enabled && !(resumeFrom && this.shared.produces(resumeFrom.streamId));
  }

  async serve(
    session: ClientSession,
    resumeFrom: ResumePoint | undefined,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    try {
      if (resumeFrom && resumeFrom.streamId !== STANDALONE_STREAM_ID) {
        return await this.replayForeign(session, resumeFrom, raw, res);
      }
      return await this.standalone(session, resumeFrom, raw, res);
    } catch (error) {
      if (!(error instanceof McpStateUnavailableError)) throw error;
      if (!res.headersSent) writeStateUnavailable(res);
    }
  }

  private async standalone(
    session: ClientSession,
    resumeFrom: ResumePoint | undefined,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    if (!resumeFrom && session.hasStream) {
      return writeTransportError(res, 409, 'Conflict: this session already has an open stream');
    }
    const held = await this.shared.holdStandalone(session, resumeFrom !== undefined);
    if (held === 'conflict') return writeTransportError(res, 409, 'Conflict: this session already has an open stream');
    if (held === 'gone') return writeTransportError(res, 404, 'Session not found');
    const { backlog, generation } = held;
    if (raw.destroyed || res.destroyed || res.writableEnded) {
      return this.shared.releaseStandalone(session, generation);
    }
    const events = resumeFrom
      ? session.streams.resume(STANDALONE_STREAM_ID, resumeFrom.seq)!
      : session.streams.attach();
    session.lastActivity = Date.now();
    const writer: SseWriter = new SseWriter(
      res,
      this.options.http.keepAliveMs,
      session.streams.pendingCounter(() => writer.abandon()),
    );
    if (!writer.open({ [MCP_SESSION_ID_HEADER]: session.id })) {
      return this.shared.releaseStandalone(session, generation);
    }
    pumpToConnection(events, writer, res, {
      onClose: () => {
        session.lastActivity = Date.now();
        this.shared.releaseStandalone(session, generation);
      },
    });
    // What waited for a connection while none was held anywhere, in the order it was sent.
    for (const data of backlog) session.streams.sendStandaloneEncoded(data);
  }

  private async replayForeign(
    session: ClientSession,
    resumeFrom: ResumePoint,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const { streamId } = resumeFrom;
    const replay = await this.shared.replayForeign(session, streamId, resumeFrom.seq);
    if (raw.destroyed || res.destroyed || res.writableEnded) return;
    if (replay.finished && replay.events.length === 0) {
      return writeEmpty(res, 204, { [MCP_SESSION_ID_HEADER]: session.id });
    }
    const events: StreamEvent[] = replay.events.map((event) => ({ ...event, replayed: true }));
    if (!replay.finished) {
      // Its producer still runs it: the client polls again after `retry` (it may reach the producer
      // then). The position goes first: a client that saw no event id on this connection would come
      // back without one, and lose its place.
      const last = events.at(-1)?.seq ?? resumeFrom.seq;
      events.push(
        { streamId, seq: last, data: '' },
        { streamId, seq: last, data: '', retry: this.options.http.sseRetryMs },
      );
    }
    session.lastActivity = Date.now();
    const writer: SseWriter = new SseWriter(
      res,
      this.options.http.keepAliveMs,
      session.streams.pendingCounter(() => writer.abandon()),
    );
    if (!writer.open({ [MCP_SESSION_ID_HEADER]: session.id })) return;
    pumpToConnection(from(events), writer, res, {
      onDelivered: replay.finished ? () => session.streams.forgetPostStream(streamId) : undefined,
      streamFinished: () => replay.finished,
    });
  }
}
