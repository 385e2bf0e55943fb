import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  Implementation,
  Root,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The protocol era a test client speaks: `'2025-11-25'`, with a session (`initialize`,
 * `Mcp-Session-Id`, a GET stream), or `'2026-07-28'`, stateless requests that each carry the
 * `_meta` envelope.
 */
export type McpTestEra = '2025-11-25' | '2026-07-28';

/** Options of {@link createMcpTestClient}. */
export interface McpTestClientOptions {
  /**
   * Headers of every request, as the endpoint's guards see them (`authorization`, say).
   * @default {}
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The era the client speaks.
   * @default '2025-11-25'
   */
  readonly era?: McpTestEra;
  /**
   * The path of the MCP endpoint, with the global prefix if the app has one.
   * @default '/mcp'
   */
  readonly path?: string;
  /**
   * The client's name and version, as the server sees them.
   * @default { name: 'mcp42-test-client', version: '1.0.0' }
   */
  readonly clientInfo?: Implementation;
  /**
   * Capabilities the client declares beyond those its handlers bring (each handler below declares its own).
   * @default {}
   */
  readonly capabilities?: ClientCapabilities;
  /**
   * Answers the server's elicitations (`ctx.elicit()`), in either era; declares `elicitation`.
   * @default undefined (the client cannot be asked)
   */
  readonly onElicitation?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /**
   * Answers the server's sampling requests (`ctx.sample()`), in either era; declares `sampling`.
   * @default undefined
   */
  readonly onSampling?: (params: CreateMessageRequest['params']) => CreateMessageResult | Promise<CreateMessageResult>;
  /**
   * The client's roots (`ctx.listRoots()`): a list, or a function asked each time; declares `roots`.
   * @default undefined
   */
  readonly roots?: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);
}
