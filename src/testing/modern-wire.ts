import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { encodeHeaderValue } from '../protocol/header-value.js';
import { Method } from '../protocol/methods.js';
import { MetaKey } from '../protocol/request-envelope.js';
import { MODERN_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import { ACCEPT_BOTH, readAnswer } from './http-answers.js';
import type { HttpReply, InProcessHttp } from './in-process-http.js';
import { InputAsks } from './input-asks.js';
import { ParamHeaderBook } from './param-header-book.js';
import { isRequest, type Wire, type WireEvents } from './wire.js';

/** The revision this wire speaks. */
export const MODERN_VERSION = MODERN_PROTOCOL_VERSIONS[0];

/** The body field `Mcp-Name` mirrors, per method. */
const NAME_FIELD: Readonly<Record<string, string>> = {
  [Method.ToolsCall]: 'name',
  [Method.PromptsGet]: 'name',
  [Method.ResourcesRead]: 'uri',
};

/** More rounds than any handler asks in sequence: past this, the server is taken to loop. */
const MAX_ROUNDS = 64;

type Params = Record<string, unknown>;

/** A request being served: the HTTP exchange of its current round, and whether the client cancelled it. */
interface Flight {
  reply?: HttpReply;
  cancelled: boolean;
}

/**
 * The stateless 2026-07-28 era under an SDK v1 `Client`, which knows only the 2025 handshake:
 * - `initialize` is answered here from a `server/discover` (see {@link ModernWire.initialize});
 *   `notifications/initialized` and the other client notifications have no HTTP form and stay here,
 *   but `notifications/cancelled`, which closes the request's response (the era's cancellation);
 * - `ping` becomes a `server/discover` (the era has no ping), answered `{}`; `logging/setLevel` is kept
 *   and sent in each later envelope (`io.modelcontextprotocol/logLevel`), answered `{}`;
 * - every other request is POSTed on its own with the `_meta` envelope (the handshake's clientInfo
 *   and capabilities) and the headers that mirror it (`MCP-Protocol-Version`, `Mcp-Method`,
 *   `Mcp-Name`, a tool's `Mcp-Param-*`); progress and log notifications on its SSE answer reach the
 *   client as they arrive; an `input_required` result becomes JSON-RPC requests to the client (its
 *   elicitation, sampling and roots handlers answer them) and the request is sent again with the
 *   answers and the `requestState`, until it completes.
 */
export class ModernWire implements Wire {
  private clientInfo: unknown;
  private capabilities: unknown = {};
  private logLevel: string | undefined;
  private readonly flights = new Map<RequestId, Flight>();
  private readonly asks: InputAsks;
  private readonly paramHeaders: ParamHeaderBook;
  private closed = false;

  constructor(
    private readonly http: InProcessHttp,
    private readonly events: WireEvents,
  ) {
    this.asks = new InputAsks(events);
    this.paramHeaders = new ParamHeaderBook((params) => this.call(Method.ToolsList, params));
  }

  setProtocolVersion(): void {
    // The client's 2025 version names nothing on this wire: every request says 2026-07-28.
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isRequest(message)) {
      if ('method' in message) return this.notify(message.method, message.params);
      // The client's answer to a question of an input round.
      return this.asks.answer(message);
    }
    switch (message.method) {
      case Method.Initialize:
        return this.initialize(message);
      case Method.Ping: {
        const discovered = await this.call(Method.ServerDiscover, {});
        if (discovered.error) return this.events.deliver({ jsonrpc: '2.0', id: message.id, error: discovered.error });
        return this.answer(message.id, {});
      }
      case Method.LoggingSetLevel:
        this.logLevel = String((message.params as Params | undefined)?.level);
        return this.answer(message.id, {});
      default:
        return this.serve(message);
    }
  }

  close(): Promise<void> {
    this.closed = true;
    this.asks.cancelAll();
    for (const flight of this.flights.values()) {
      flight.cancelled = true;
      flight.reply?.close();
    }
    return Promise.resolve();
  }

  /**
   * The SDK v1 client's handshake, answered from `server/discover`: the client's info and
   * capabilities go in every later envelope, and it gets an `InitializeResult` with the server's
   * capabilities, identity and instructions. Its `protocolVersion` is the one the client asked for:
   * a v1 client refuses any other (2026-07-28 is not among its versions), and no request says it
   * anyway. `resources.subscribe` is left out: the era has no `resources/subscribe`.
   */
  private async initialize(request: JSONRPCRequest): Promise<void> {
    const params = (request.params ?? {}) as Params;
    this.clientInfo = params.clientInfo;
    this.capabilities = params.capabilities ?? {};
    const discovered = await this.call(Method.ServerDiscover, {});
    if (discovered.error) return this.events.deliver({ jsonrpc: '2.0', id: request.id, error: discovered.error });
    const result = discovered.result as Params;
    const capabilities = { ...(result.capabilities as Params) };
    if (typeof capabilities.resources === 'object' && capabilities.resources !== null) {
      const { subscribe: _none, ...resources } = capabilities.resources as Params;
      capabilities.resources = resources;
    }
    const meta = (result._meta ?? {}) as Params;
    this.answer(request.id, {
      protocolVersion: params.protocolVersion,
      capabilities,
      serverInfo: meta[MetaKey.ServerInfo] ?? { name: 'unknown', version: '0' },
      ...(result.instructions === undefined ? {} : { instructions: result.instructions }),
    });
  }

  private notify(method: string, params: unknown): void {
    if (method !== Method.Cancelled) return;
    const flight = this.flights.get((params as Params | undefined)?.requestId as RequestId);
    if (!flight) return;
    flight.cancelled = true;
    flight.reply?.close();
  }

  /** A request of the client, served in rounds until it completes, was cancelled, or the wire closed. */
  private async serve(request: JSONRPCRequest): Promise<void> {
    const flight: Flight = { cancelled: false };
    this.flights.set(request.id, flight);
    try {
      let params = (request.params ?? {}) as Params;
      for (let round = 1; ; round++) {
        const outcome = await this.exchange(request.method, params, request.id, flight);
        if (outcome === undefined || flight.cancelled) return;
        const result = outcome.result as Params | undefined;
        if (result?.resultType !== 'input_required') {
          if (request.method === Method.ToolsList && result) this.paramHeaders.learn(result);
          return this.events.deliver(outcome as JSONRPCMessage);
        }
        if (round === MAX_ROUNDS) {
          throw new Error(`${request.method} still asked for input after ${MAX_ROUNDS} rounds`);
        }
        const answers = await this.asks.ask((result.inputRequests ?? {}) as Params);
        if (flight.cancelled) return;
        if ('error' in answers) {
          return this.events.deliver({ jsonrpc: '2.0', id: request.id, error: answers.error });
        }
        const { inputResponses: _previous, requestState: _state, ...original } = params;
        params = {
          ...original,
          inputResponses: answers.responses,
          ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
        };
      }
    } finally {
      this.flights.delete(request.id);
    }
  }

  /** A request the wire makes itself (`server/discover`, a listing for headers): its answer, whatever it is. */
  private async call(
    method: string,
    params: Params,
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const outcome = await this.exchange(method, params, `mcp42-testing-${method}`, { cancelled: false });
    return (outcome ?? {}) as { result?: unknown; error?: { code: number; message: string } };
  }

  /**
   * One POST of a request: notifications on its answer are delivered as they come; its own answer
   * is returned (undefined when the client cancelled it).
   */
  private async exchange(
    method: string,
    params: Params,
    id: RequestId,
    flight: Flight,
  ): Promise<{ id: RequestId; result?: unknown; error?: unknown } | undefined> {
    const body = { jsonrpc: '2.0', id, method, params: this.withEnvelope(params) };
    const reply = await this.http.request('POST', await this.headersOf(method, params), JSON.stringify(body));
    flight.reply = reply;
    if (flight.cancelled) reply.close();
    let answer: { id: RequestId; result?: unknown; error?: unknown } | undefined;
    try {
      await readAnswer(reply, id, (message) => {
        if (!('method' in message) && 'id' in message && message.id === id) answer = { ...message, id };
        else this.events.deliver(message);
      });
    } catch (error) {
      if (reply.closed || this.closed) return undefined;
      throw error;
    }
    return answer;
  }

  private withEnvelope(params: Params): Params {
    const meta = (params._meta ?? {}) as Params;
    return {
      ...params,
      _meta: {
        ...meta,
        [MetaKey.ProtocolVersion]: MODERN_VERSION,
        [MetaKey.ClientCapabilities]: this.capabilities,
        ...(this.clientInfo === undefined ? {} : { [MetaKey.ClientInfo]: this.clientInfo }),
        ...(this.logLevel === undefined ? {} : { [MetaKey.LogLevel]: this.logLevel }),
      },
    };
  }

  private async headersOf(method: string, params: Params): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
    };
    const field = NAME_FIELD[method];
    const name = field === undefined ? undefined : params[field];
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
    if (method === Method.ToolsCall && typeof name === 'string') {
      Object.assign(headers, await this.paramHeaders.headersOf(name, params.arguments as Params | undefined));
    }
    return headers;
  }

  private answer(id: RequestId, result: Params): void {
    this.events.deliver({ jsonrpc: '2.0', id, result });
  }
}
