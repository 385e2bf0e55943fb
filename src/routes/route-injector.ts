import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { Readable } from 'node:stream';
import { sendInProcess } from '../in-process/in-process-request.js';

/** A request for a route of the application, made from one tool call. */
export interface RouteRequest {
  readonly method: string;
  /** Path and query string. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text, when the route takes a body. */
  readonly body?: string;
  /** The call's signal: aborting it destroys the in-process request. */
  readonly signal: AbortSignal;
}

/** The route's answer, its body read up to the limit. */
export interface RouteResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly body: Buffer;
  /** Whether the body went past the limit: it was then left unread, and `body` is empty. */
  readonly tooLarge: boolean;
}

/**
 * Runs a request through the application's own HTTP server, in process and without a socket (a
 * connection in memory, as the testing kit's): everything the router runs for a request over the
 * network (middleware, guards, interceptors, pipes, filters) runs for it, on Express and Fastify
 * alike. The connection is not the testing kit's: it acts for a remote caller, and is trusted
 * with nothing.
 */
@Injectable()
export class RouteInjector {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async send(request: RouteRequest, maxBytes: number): Promise<RouteResponse> {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    const sent = sendInProcess(server, {
      method: request.method,
      path: request.url,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      trusted: false,
      // Cancelled, the route sees its client go, whether it answered yet or not.
      signal: request.signal,
    });
    const reply = await untilAborted(sent, request.signal);
    const { body, tooLarge } = await readBounded(reply.body, maxBytes, request.signal);
    return { status: reply.status, headers: reply.headers, body, tooLarge };
  }
}

/** The promise, or the signal's reason once it aborts first (a route that never answers does not hold the call). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => {
    signal.removeEventListener('abort', onAbort!);
  });
}

async function readBounded(
  stream: Readable,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const read = async (): Promise<{ body: Buffer; tooLarge: boolean }> => {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        stream.destroy();
        return { body: Buffer.alloc(0), tooLarge: true };
      }
      chunks.push(chunk);
    }
    return { body: Buffer.concat(chunks), tooLarge: false };
  };
  return untilAborted(read(), signal);
}
