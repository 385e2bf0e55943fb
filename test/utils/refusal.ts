/** A refused HTTP exchange as the tests read it (node:http, supertest and fetch answers alike). */
export interface RefusedReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** A JSON-RPC error object. */
export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What a refusal carries besides its status; each field is checked only when given, but `id` and `code`. */
export interface ExpectedRefusal {
  /** The JSON-RPC id it answers: `null` (the request's id unknown or unread) unless given. */
  readonly id?: string | number | null;
  /** The error code (or `expect.any(Number)`); -32000, a transport refusal, unless given. */
  readonly code?: number;
  /** The error message, exactly (a string) or by pattern. */
  readonly message?: string | RegExp;
  /** What `error.data` must hold (matched as a subset). */
  readonly data?: Record<string, unknown>;
  /** Headers the answer must carry (a string exactly, a RegExp by pattern), e.g. `allow` or `www-authenticate`. */
  readonly headers?: Record<string, string | RegExp>;
  /**
   * The session the refused request was on, whose id the answer echoes; without it the answer must
   * carry no `Mcp-Session-Id` (a refusal mints no session, and one made before the session was
   * looked up names none).
   */
  readonly sessionId?: string;
}

/** Fails if `text` shows anything of the server's insides: a stack, a source file, a path, a secret. */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bstack\b/i);
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/\.(ts|js):\d+/);
  expect(text).not.toMatch(/node_modules|\/srv\/|secret/);
}

/**
 * Fails unless `reply` is a refusal as mcp42 writes one: the status, a JSON body that is exactly one
 * JSON-RPC error (`jsonrpc`, `id`, `error` and nothing else; the error's `code`, `message` and maybe
 * `data`), the id, code, message, data and headers `expected` names, nothing internal in it, and the
 * session id of `expected.sessionId` or none. Returns the error object.
 */
export function expectRefusal(reply: RefusedReply, status: number, expected: ExpectedRefusal = {}): RpcErrorBody {
  // The body beside the status, so that a failure shows what was answered instead.
  expect({ status: reply.status, body: reply.text }).toMatchObject({ status });
  expect(reply.headers['content-type']).toMatch(/^application\/json\b/);
  const body = JSON.parse(reply.text) as { jsonrpc: string; id: unknown; error: RpcErrorBody };
  expect(Object.keys(body).sort()).toEqual(['error', 'id', 'jsonrpc']);
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBe(expected.id ?? null);
  // toEqual, so that `expect.any(Number)` can stand for a code a test leaves open.
  expect(body.error.code).toEqual(expected.code ?? -32000);
  expect(typeof body.error.message).toBe('string');
  expect(Object.keys(body.error).filter((key) => !['code', 'message', 'data'].includes(key))).toEqual([]);
  if (typeof expected.message === 'string') expect(body.error.message).toBe(expected.message);
  else if (expected.message !== undefined) expect(body.error.message).toMatch(expected.message);
  if (expected.data !== undefined) expect(body.error.data).toMatchObject(expected.data);
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    if (typeof value === 'string') expect(reply.headers[name]).toBe(value);
    else expect(String(reply.headers[name])).toMatch(value);
  }
  expect(reply.headers['mcp-session-id']).toBe(expected.sessionId);
  expectNoInternals(reply.text);
  return body.error;
}
