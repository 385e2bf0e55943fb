import type { Logger } from '@nestjs/common';
import { audio, embeddedBlob, image, text } from '../content/content.builders.js';
import type { CallToolResult } from '../protocol/mcp.types.js';
import { textResult } from '../tools/tool-result.mapper.js';
import type { RouteResponse } from './route-injector.js';

/** How much of a failed route's body goes to the log. */
const LOGGED_BODY_CHARS = 2_000;

/** What a route-backed tool's answer needs beside the response. */
export interface RouteAnswerContext {
  readonly name: string;
  readonly owner: string;
  /** The in-process request, `METHOD /path`, for logs. */
  readonly request: string;
  /** The URL binary bodies are embedded under. */
  readonly url: string;
  readonly maxBytes: number;
  readonly logger: Logger;
  /** The output schema declares the array body under this property (MCP structured content is an object). */
  readonly wrapArrayAs?: string;
}

/**
 * Maps a route's HTTP answer to the tool's result: a 2xx JSON object is `structuredContent` and its
 * text; other 2xx bodies are text, image, audio or an embedded blob by their media type; 401 and 403
 * say the caller is not allowed; other 4xx carry the error body's message (a `ValidationPipe`'s list
 * of problems reads as one line per problem); anything else is logged and answered with a generic
 * error that reveals nothing of the body.
 */
export function routeAnswer(response: RouteResponse, context: RouteAnswerContext): CallToolResult {
  const { name, maxBytes } = context;
  if (response.tooLarge) {
    return textResult(
      `Tool ${name} failed: the response is larger than ${maxBytes} bytes, the limit of tool results`,
      true,
    );
  }
  const { status } = response;
  if (status >= 200 && status < 300) return success(response, context.url, context.wrapArrayAs);
  if (status === 401 || status === 403) {
    return textResult(
      `Tool ${name} failed: the caller is not allowed to use it (HTTP ${status}: ${messageOf(response) ?? 'refused'})`,
      true,
    );
  }
  if (status >= 400 && status < 500) {
    return textResult(`Tool ${name} failed: ${messageOf(response) ?? `HTTP ${status}`}`, true);
  }
  context.logger.error(
    `Tool ${name} (${context.owner}): ${context.request} answered HTTP ${status}; the caller is told nothing more. ` +
      `Body: ${response.body.toString('utf8').slice(0, LOGGED_BODY_CHARS)}`,
  );
  return textResult(`Tool ${name} failed: an internal error occurred`, true);
}

function success(response: RouteResponse, url: string, wrapArrayAs: string | undefined): CallToolResult {
  const { body } = response;
  if (body.length === 0) return { content: [] };
  const type = mediaTypeOf(response);
  if (type === 'application/json' || type.endsWith('+json')) {
    const json = body.toString('utf8');
    const value = parseJson(json);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return { content: [text(json)], structuredContent: value as Record<string, unknown> };
    }
    if (Array.isArray(value) && wrapArrayAs !== undefined) {
      return { content: [text(json)], structuredContent: { [wrapArrayAs]: value } };
    }
    return { content: [text(json)] };
  }
  if (type.startsWith('text/') || type === '' || type === 'application/xml')
    return { content: [text(body.toString('utf8'))] };
  if (type.startsWith('image/')) return { content: [image(body, type)] };
  if (type.startsWith('audio/')) return { content: [audio(body, type)] };
  return { content: [embeddedBlob(url, body, { mimeType: type })] };
}

/** The message of an error body: Nest's `{ message }` (a string or a list), else the text itself. */
function messageOf(response: RouteResponse): string | undefined {
  const raw = response.body.toString('utf8');
  if (raw === '') return undefined;
  const value = parseJson(raw) as { message?: unknown; error?: unknown } | undefined;
  if (value !== null && typeof value === 'object') {
    const { message, error } = value;
    if (Array.isArray(message)) return message.map(String).join('; ');
    if (typeof message === 'string') return message;
    if (typeof error === 'string') return error;
  }
  return mediaTypeOf(response).startsWith('text/') ? raw.slice(0, LOGGED_BODY_CHARS) : undefined;
}

function mediaTypeOf(response: RouteResponse): string {
  const header = response.headers['content-type'];
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' ? (value.split(';')[0] ?? '').trim().toLowerCase() : '';
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
