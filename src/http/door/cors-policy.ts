import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { writeEmpty } from '../responses/http-responses.js';
import type { McpCorsOptions } from '../../interfaces/mcp-module-options.interface.js';
import { allowedMethods } from './method-refusal.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { headerValue } from '../requests/http-request.js';

/** The request headers an MCP client sends, both eras (`Mcp-Param-*` are allowed by their prefix). */
const ALLOWED_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
] as const;
const ALLOWED = new Set<string>(ALLOWED_HEADERS);
const PARAM_HEADER = /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** What a browser page may read of an answer: the session id to send back, the auth challenge. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate';

/**
 * CORS for the endpoint, tied to `http.allowedOrigins`: an origin that may reach the endpoint may read
 * its answers, and its preflights are answered (204) before any guard (a preflight carries no
 * credentials). The allowed origin is echoed, never `*`, so credentials can be allowed safely.
 */
export class CorsPolicy {
  private readonly maxAge: string;

  constructor(
    private readonly options: Required<McpCorsOptions>,
    private readonly methods: string,
  ) {
    this.maxAge = String(options.maxAgeSeconds);
  }

  /** Whether this is a preflight (OPTIONS with `Origin` and `Access-Control-Request-Method`). */
  isPreflight(method: string | undefined, headers: IncomingHttpHeaders): boolean {
    return (
      method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined
    );
  }

  /** The headers of a preflight's 204 (its `Origin` already allowed). */
  preflight(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
    const requested = (headerValue(headers, 'access-control-request-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '' && (ALLOWED.has(name) || PARAM_HEADER.test(name)));
    return {
      ...this.common(headerValue(headers, 'origin')!),
      'access-control-allow-methods': this.methods,
      'access-control-allow-headers': [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '),
      'access-control-max-age': this.maxAge,
    };
  }

  /** The headers that let the page of an allowed `Origin` read an answer; none without `Origin`. */
  answer(headers: IncomingHttpHeaders): OutgoingHttpHeaders | undefined {
    const origin = headerValue(headers, 'origin');
    if (origin === undefined) return undefined;
    // Added to, not spread: a spread object's keys take a slower path when they are read back.
    const answer = this.common(origin);
    answer['access-control-expose-headers'] = EXPOSED_HEADERS;
    return answer;
  }

  private common(origin: string): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = { 'access-control-allow-origin': origin, vary: 'Origin' };
    if (this.options.credentials) headers['access-control-allow-credentials'] = 'true';
    return headers;
  }
}

/** The CORS policy of the endpoint, or `undefined` when `cors` is off. */
export function corsPolicyOf(options: ResolvedMcpOptions): CorsPolicy | undefined {
  const { cors } = options.http;
  if (cors === false) return undefined;
  const settings = cors === true ? {} : cors;
  const methods = allowedMethods(options);
  return new CorsPolicy(
    { credentials: settings.credentials ?? false, maxAgeSeconds: settings.maxAgeSeconds ?? 600 },
    methods,
  );
}

/**
 * Applies CORS to a request whose origin is allowed: answers a preflight (204, returns true: the
 * request is done), or puts the headers that let its page read the answer on `res` (returns false).
 */
export function applyCors(cors: CorsPolicy, raw: IncomingMessage, res: ServerResponse): boolean {
  if (cors.isPreflight(raw.method, raw.headers)) {
    writeEmpty(res, 204, cors.preflight(raw.headers));
    return true;
  }
  const headers = cors.answer(raw.headers);
  if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value!);
  return false;
}
