/**
 * Clients of the official MCP SDK v2 (`@modelcontextprotocol/client`), which speak the stateless
 * 2026-07-28 revision when asked to (`versionNegotiation`), with every HTTP exchange they make
 * recorded: what the tests check of the wire, beside what the client makes of it.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type FetchLike,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';

/** One HTTP request the client made, and what came back (the body only when it was JSON). */
export interface RecordedExchange {
  readonly httpMethod: string;
  /** The request's headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request's body, parsed (undefined for a GET). */
  readonly body: unknown;
  status?: number;
  contentType?: string;
  /** The response body, parsed, when it was `application/json` (an SSE stream is left to the client). */
  response?: unknown;
}

/** A connected v2 client, its transport, and every HTTP exchange it made. */
export interface ModernSdkConnection {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly exchanges: RecordedExchange[];
  /** The POSTs whose JSON-RPC method is `method`, in order. */
  posts(method: string): RecordedExchange[];
}

export interface ModernConnectOptions {
  readonly info?: { readonly name: string; readonly version: string };
  readonly capabilities?: ClientCapabilities;
  /** How the client picks a protocol version: 'auto' (discover first, the default here), 'legacy' or a pin. */
  readonly negotiation?: VersionNegotiationMode;
  /** Headers sent with every request (a bearer token, say). */
  readonly headers?: Record<string, string>;
  /** Sets handlers on the client before it connects. */
  readonly prepare?: (client: Client) => void;
}

export interface ModernSdkClients {
  /** Connects a v2 client to the MCP endpoint at `url`; it is closed after the test. */
  connect(url: string, options?: ModernConnectOptions): Promise<ModernSdkConnection>;
}

/** A fetch that records each exchange in `log` before handing the response to the client. */
export function recordingFetch(log: RecordedExchange[]): FetchLike {
  return async (url, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const exchange: RecordedExchange = {
      httpMethod: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body,
    };
    log.push(exchange);
    const response = await fetch(url, init);
    exchange.status = response.status;
    exchange.contentType = response.headers.get('content-type') ?? undefined;
    if (exchange.contentType?.startsWith('application/json')) {
      // A JSON body is short and complete: read from a copy, the client reads the original.
      exchange.response = await response
        .clone()
        .json()
        .catch(() => undefined);
    }
    return response;
  };
}

/** The JSON-RPC method of an exchange's request body, if it has one. */
export function rpcMethodOf(exchange: RecordedExchange): string | undefined {
  const method = (exchange.body as { method?: unknown } | undefined)?.method;
  return typeof method === 'string' ? method : undefined;
}

/** v2 clients for the tests of the enclosing `describe`, each closed after its test. */
export function useModernSdkClients(): ModernSdkClients {
  const connected: Client[] = [];
  afterEach(async () => {
    await Promise.all(connected.splice(0).map((client) => client.close()));
  });

  return {
    async connect(url, options = {}) {
      const client = new Client(options.info ?? { name: 'mcp42-e2e-v2', version: '1.0.0' }, {
        capabilities: options.capabilities,
        versionNegotiation: { mode: options.negotiation ?? 'auto' },
      });
      options.prepare?.(client);
      const exchanges: RecordedExchange[] = [];
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        fetch: recordingFetch(exchanges),
        requestInit: options.headers === undefined ? undefined : { headers: options.headers },
      });
      connected.push(client);
      await client.connect(transport);
      return {
        client,
        transport,
        exchanges,
        posts: (method) =>
          exchanges.filter((exchange) => exchange.httpMethod === 'POST' && rpcMethodOf(exchange) === method),
      };
    },
  };
}
