import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

/** A connected official-SDK client and its transport. */
export interface SdkConnection {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
}

export interface SdkConnectOptions {
  /** The client's `clientInfo`. */
  readonly info?: { readonly name: string; readonly version: string };
  readonly capabilities?: ClientCapabilities;
  readonly jsonSchemaValidator?: jsonSchemaValidator;
  /** Headers sent with every request (a bearer token, say). */
  readonly headers?: Record<string, string>;
  /** The transport to connect over, in place of a plain one to the URL. */
  readonly transport?: StreamableHTTPClientTransport;
  /** Sets handlers on the client before it connects. */
  readonly prepare?: (client: Client) => void;
}

export interface SdkClients {
  /** The clients of the current test (of the describe, with `closeAfter: 'all'`), in the order they connected. */
  readonly connected: readonly SdkConnection[];
  /** Connects a client to the MCP endpoint at `url`; it is closed with the others. */
  connect(url: string, options?: SdkConnectOptions): Promise<SdkConnection>;
  /** Closes the clients connected so far now (before their application closes, say). */
  closeAll(): Promise<void>;
}

export interface UseSdkClientsOptions {
  /** End each client's session (DELETE) before closing it, so that none stays subscribed. */
  readonly terminate?: boolean;
  /** Close the clients after each test (the default), or once after the last. */
  readonly closeAfter?: 'each' | 'all';
}

/** Official-SDK clients for the tests of the enclosing `describe`, closed after each test (or after all). */
export function useSdkClients(options: UseSdkClientsOptions = {}): SdkClients {
  const connected: SdkConnection[] = [];

  const closeAll = async (): Promise<void> => {
    await Promise.all(
      connected.splice(0).map(async ({ client, transport }) => {
        if (options.terminate === true) await transport.terminateSession();
        await client.close();
      }),
    );
  };
  if (options.closeAfter === 'all') afterAll(closeAll);
  else afterEach(closeAll);

  return {
    connected,
    closeAll,
    async connect(url, connectOptions = {}) {
      const client = new Client(connectOptions.info ?? { name: 'mcp42-e2e', version: '1.0.0' }, {
        capabilities: connectOptions.capabilities,
        jsonSchemaValidator: connectOptions.jsonSchemaValidator,
      });
      connectOptions.prepare?.(client);
      const transport =
        connectOptions.transport ??
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: connectOptions.headers === undefined ? undefined : { headers: connectOptions.headers },
        });
      const connection = { client, transport };
      connected.push(connection);
      await client.connect(transport);
      return connection;
    },
  };
}

/**
 * The SDK's own Ajv validator, noting every value it checks against a tool's output schema: proof
 * that the client did validate. Give it to a client as its `jsonSchemaValidator`.
 */
export class RecordingValidator implements jsonSchemaValidator {
  /** Every check, in order: the schema, the value, and the verdict. */
  readonly checks: { schema: JsonSchemaType; input: unknown; valid: boolean }[] = [];
  private readonly ajv = new AjvJsonSchemaValidator();

  /** The checks without their schemas. */
  get verdicts(): { input: unknown; valid: boolean }[] {
    return this.checks.map(({ input, valid }) => ({ input, valid }));
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const validate = this.ajv.getValidator<T>(schema);
    return (input) => {
      const result = validate(input);
      this.checks.push({ schema, input, valid: result.valid });
      return result;
    };
  }
}
