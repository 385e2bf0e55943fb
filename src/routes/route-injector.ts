import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { inject, type DispatchFunc, type InjectOptions, type Response } from 'light-my-request';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

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

/** The part of a Fastify instance used here: its own `inject()` (light-my-request inside). */
interface FastifyInject {
  inject(options: InjectOptions): Promise<Response>;
}

/**
 * Runs a request through the application's own HTTP handler, in process and without a socket, as
 * Fastify's `inject()` does (`light-my-request`): on Fastify with the instance's `inject()`, on
 * Express (or any Node handler) with light-my-request directly. Everything the router runs for a
 * request over the network (middleware, guards, interceptors, pipes, filters) runs for it.
 */
@Injectable()
export class RouteInjector {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async send(request: RouteRequest, maxBytes: number): Promise<RouteResponse> {
    const adapter = this.adapterHost.httpAdapter;
    const options: InjectOptions = {
      method: request.method as InjectOptions['method'],
      url: request.url,
      headers: request.headers,
      ...(request.body === undefined ? {} : { payload: request.body }),
      signal: request.signal,
      // Read as it comes, so that a body past the limit is refused without being held whole.
      payloadAsStream: true,
    };
    const sent =
      adapter.getType() === 'fastify'
        ? adapter.getInstance<FastifyInject>().inject(options)
        : inject(keepInjectedMethods(adapter.getInstance<DispatchFunc>()), options);
    const response = await untilAborted(sent, request.signal);
    const { body, tooLarge } = await readBounded(response.stream(), maxBytes, request.signal);
    return { status: response.statusCode, headers: response.headers, body, tooLarge };
  }
}

/**
 * The handler, given requests and responses whose light-my-request methods are their own
 * properties: Express swaps the prototype of both for its own (`req.query`, `res.json`…), which
 * would otherwise drop the in-process `write()`/`end()` and leave the answer nowhere.
 */
function keepInjectedMethods(handler: DispatchFunc): DispatchFunc {
  return (req: IncomingMessage, res: ServerResponse) => {
    pinMethods(res, ['writeHead', 'write', 'end', 'destroy', 'setTimeout', 'addTrailers']);
    pinMethods(req, ['destroy']);
    handler(req, res);
  };
}

function pinMethods(target: object, names: readonly string[]): void {
  const prototype = Object.getPrototypeOf(target) as Record<string, unknown>;
  for (const name of names) {
    const method = prototype[name];
    if (typeof method === 'function')
      Object.defineProperty(target, name, { value: method, writable: true, configurable: true });
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
