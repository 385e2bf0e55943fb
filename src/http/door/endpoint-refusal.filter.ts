import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { errorResponse, ErrorCode, JsonRpcError } from '../../protocol/json-rpc.errors.js';
import type { RequestId } from '../../protocol/json-rpc.types.js';
import { carriesBody, rawRequest } from '../requests/http-request.js';

/**
 * Answers an `HttpException` thrown on the way to the endpoint (an endpoint guard's
 * `UnauthorizedException`, `ForbiddenException`, the throttler's 429…) with its status and the
 * headers the guard set, and a JSON-RPC error body: the exception's message, the request's id when
 * the platform already parsed the body, else `null`. Clients show that message; Nest's own
 * `{"statusCode":401,"message":"Unauthorized"}` reaches users of the Python SDK as "-32603 Server
 * returned an error response". A body that is already JSON-RPC (the OAuth guard's) is sent as it is.
 *
 * Written through Nest's HTTP adapter, so that headers set on a Fastify reply go out with it. A body
 * left unread (never read for a refused request) closes the connection after the answer. Scoped to
 * the endpoint's controller, it answers these exceptions before any filter of the application
 * (`APP_FILTER`): one that reports refusals should listen to the guards instead.
 */
@Catch(HttpException)
export class EndpointRefusalFilter implements ExceptionFilter<HttpException> {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: HttpException, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<unknown>();
    const response = http.getResponse<unknown>();
    const adapter = this.adapterHost.httpAdapter;
    // Thrown after the answer began (an interceptor's timeout during an SSE answer): nothing can be
    // said any more, only the response ended, as Nest's own filter does.
    if (adapter.isHeadersSent(response)) return void adapter.end(response);
    const raw = rawRequest(request);
    if (carriesBody(raw) && !raw.readableEnded) adapter.setHeader(response, 'connection', 'close');
    adapter.reply(response, jsonRpcBody(exception, request), exception.getStatus());
  }
}

function jsonRpcBody(exception: HttpException, request: unknown): object {
  const given = exception.getResponse();
  if (isJsonRpcError(given)) return given;
  return errorResponse(parsedRequestId(request), new JsonRpcError(ErrorCode.ServerError, exception.message));
}

function isJsonRpcError(value: unknown): value is object {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/** The id of a single JSON-RPC request the platform parsed already (Express's body parser); else null. */
function parsedRequestId(request: unknown): RequestId | null {
  const body = (request as { body?: unknown }).body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
