import { encodeHeaderValue } from '../protocol/header-value.js';
import { paramHeadersOf, type ParamHeader } from '../protocol/param-headers.js';

type Params = Record<string, unknown>;
type Listing = (params: Params) => Promise<{ result?: unknown }>;

/** Pages of `tools/list` read at most to learn a tool's headers: past this, the listing is taken to loop. */
const MAX_PAGES = 100;

/**
 * The `Mcp-Param-*` headers of each tool (arguments its input schema marks with `x-mcp-header`),
 * which a 2026-07-28 `tools/call` must carry: learnt from the listings the client reads, or, for a
 * tool called before any listing named it, from a listing made for the purpose.
 */
export class ParamHeaderBook {
  private readonly known = new Map<string, readonly ParamHeader[]>();

  constructor(private readonly list: Listing) {}

  /** Notes the headers of the tools of a `tools/list` result. */
  learn(result: unknown): void {
    const tools = (result as { tools?: unknown } | undefined)?.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as { name?: unknown; inputSchema?: unknown }[]) {
      if (typeof tool.name !== 'string') continue;
      this.known.set(tool.name, headersOfSchema(tool.inputSchema));
    }
  }

  /** The headers of a call of `name` with `args`, names lower-cased. */
  async headersOf(name: string, args: Params | undefined): Promise<Record<string, string>> {
    if (!this.known.has(name)) await this.learnAll();
    const headers: Record<string, string> = {};
    for (const { name: header, path } of this.known.get(name) ?? []) {
      const value = valueAt(args, path);
      if (value === undefined || value === null) continue;
      headers[`mcp-param-${header.toLowerCase()}`] =
        typeof value === 'string' ? encodeHeaderValue(value) : String(value as number | boolean);
    }
    return headers;
  }

  private async learnAll(): Promise<void> {
    try {
      let cursor: unknown;
      for (let page = 0; page < MAX_PAGES; page++) {
        const { result } = await this.list(typeof cursor === 'string' ? { cursor } : {});
        this.learn(result);
        cursor = (result as { nextCursor?: unknown } | undefined)?.nextCursor;
        if (typeof cursor !== 'string') return;
      }
    } catch {
      // A listing refused is no reason to fail the call here: the call meets the same refusal, said better.
    }
  }
}

function headersOfSchema(schema: unknown): readonly ParamHeader[] {
  if (typeof schema !== 'object' || schema === null) return [];
  try {
    return paramHeadersOf(schema as Params);
  } catch {
    return [];
  }
}

function valueAt(args: Params | undefined, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Params)[key];
  }
  return value;
}
