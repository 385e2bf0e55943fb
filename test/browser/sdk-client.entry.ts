/**
 * The page's script (bundled for the browser by ./sdk-page.ts): one session of the official SDK
 * client, run from the page so that every request is a cross-origin fetch under the browser's CORS.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** What one session saw. */
export interface SdkPageOutcome {
  readonly tools: string[];
  /** The session id the transport read from the answer to `initialize`: `Mcp-Session-Id` exposed. */
  readonly sessionId: string | undefined;
  /** The text blocks of the tool's result, joined. */
  readonly text: string;
}

/** Connects, lists the tools, calls `tool` with `args`, ends the session (DELETE) and closes. */
export type SdkPageRun = (
  url: string,
  tool: string,
  args: Record<string, unknown>,
  token?: string,
) => Promise<SdkPageOutcome>;

/** The global the page's script sets. */
export interface SdkPageGlobal {
  mcpRun: SdkPageRun;
}

const run: SdkPageRun = async (url, tool, args, token) => {
  const client = new Client({ name: 'browser-page', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token === undefined ? undefined : { headers: { authorization: `Bearer ${token}` } },
  });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: tool, arguments: args });
    const blocks = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
    const outcome = {
      tools: tools.map((item) => item.name),
      sessionId: transport.sessionId,
      text: blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n'),
    };
    await transport.terminateSession();
    return outcome;
  } finally {
    await client.close();
  }
};

(globalThis as unknown as SdkPageGlobal).mcpRun = run;
