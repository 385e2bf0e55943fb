import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { encodeMessage, type EncodedResponse } from '../../protocol/json-rpc.codec.js';
import { errorResponse, ErrorCode, JsonRpcError } from '../../protocol/json-rpc.errors.js';
import type { JsonRpcMessage, RequestId } from '../../protocol/json-rpc.types.js';

/**
 * `headers` then `more` (the later one wins a name both have), in a new object built by assignment.
 * Not by spread: Node reads the headers `writeHead` is given with a `for…in`, which takes a slow path
 * over an object a spread made (Node 20: about 2 µs more per response, four times the rest of
 * `writeHead`).
 */
export function joinedHeaders(
  headers: OutgoingHttpHeaders | undefined,
  more?: OutgoingHttpHeaders,
): OutgoingHttpHeaders {
  const joined: OutgoingHttpHeaders = {};
  if (headers !== undefined) copyHeaders(joined, headers);
  if (more !== undefined) copyHeaders(joined, more);
  return joined;
}

function copyHeaders(into: OutgoingHttpHeaders, from: OutgoingHttpHeaders): void {
  const names = Object.keys(from);
  for (let i = 0; i < names.length; i++) into[names[i]!] = from[names[i]!];
}

/** `headers` with a JSON body's type and length (see {@link joinedHeaders} for why not a spread). */
function jsonHeaders(headers: OutgoingHttpHeaders | undefined, length: number): OutgoingHttpHeaders {
  const joined = joinedHeaders(headers);
  joined['content-type'] = 'application/json';
  joined['content-length'] = length;
  return joined;
}

/** Writes one JSON body (a message or a batch) and ends the response. */
export function writeJson(
  res: ServerResponse,
  status: number,
  message: JsonRpcMessage | readonly JsonRpcMessage[],
  headers?: OutgoingHttpHeaders,
): void {
  writeJsonText(res, status, encodeMessage(message), headers);
}

/** Writes an already serialised JSON body and ends the response. */
export function writeJsonText(res: ServerResponse, status: number, body: string, headers?: OutgoingHttpHeaders): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, jsonHeaders(headers, Buffer.byteLength(body)));
  res.end(body);
}

/**
 * Writes an encoded response and ends the response. One in parts goes out as its parts: the long
 * one (a page of a list, kept as bytes) is neither measured nor converted again, only written.
 */
export function writeEncoded(
  res: ServerResponse,
  status: number,
  body: EncodedResponse,
  headers?: OutgoingHttpHeaders,
): void {
  if (typeof body === 'string') return writeJsonText(res, status, body, headers);
  if (res.headersSent || res.destroyed) return;
  const { head, known, tail } = body;
  res.writeHead(status, jsonHeaders(headers, Buffer.byteLength(head) + known.length + Buffer.byteLength(tail)));
  // One write of the three: corked, they leave together as they would as one body.
  res.cork();
  res.write(head);
  res.write(known);
  res.end(tail);
  res.uncork();
}

const EMPTY_LENGTH: OutgoingHttpHeaders = Object.freeze({ 'content-length': 0 });

/** Writes a status with no body (202 Accepted, 204 No Content). */
export function writeEmpty(res: ServerResponse, status: number, headers?: OutgoingHttpHeaders): void {
  if (res.headersSent || res.destroyed) return;
  // An explicit zero length keeps Node from framing the empty body as chunked.
  res.writeHead(status, status === 204 ? headers : joinedHeaders(headers, EMPTY_LENGTH));
  res.end();
}

/**
 * Refuses a request at the transport level: the HTTP status says why to HTTP clients, a JSON-RPC
 * error without id says it to MCP clients (the transport specification allows this body).
 */
export function writeTransportError(
  res: ServerResponse,
  status: number,
  message: string,
  code: number = ErrorCode.ServerError,
  headers?: OutgoingHttpHeaders,
): void {
  writeJson(res, status, errorResponse(null, new JsonRpcError(code, message)), headers);
}

/**
 * 503 for a request that needed the shared state while it cannot be reached: a JSON-RPC error the
 * client can show, and `Retry-After`, since it usually returns within moments.
 */
export function writeStateUnavailable(res: ServerResponse, id: RequestId | null = null): void {
  writeJson(
    res,
    503,
    errorResponse(id, new JsonRpcError(ErrorCode.ServerError, 'Session state is unavailable; try again shortly')),
    { 'retry-after': '1' },
  );
}
