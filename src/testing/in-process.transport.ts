import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { InProcessHttp } from './in-process-http.js';
import { LegacyWire } from './legacy-wire.js';
import type { McpTestEra } from './mcp-test-client-options.interface.js';
import { ModernWire } from './modern-wire.js';
import type { Wire } from './wire.js';

/**
 * An SDK `Transport` that speaks MCP's Streamable HTTP to a Nest application inside the process
 * ({@link InProcessHttp}): the 2025-11-25 era with a session ({@link LegacyWire}) or the stateless
 * 2026-07-28 era ({@link ModernWire}). `send()` settles once the HTTP exchanges of the message have
 * ended, and rejects with `McpHttpError` when the application refused one.
 */
export class InProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly wire: Wire;
  private closed = false;

  constructor(http: InProcessHttp, era: McpTestEra) {
    const events = {
      deliver: (message: JSONRPCMessage) => this.onmessage?.(message),
      fail: (error: Error) => this.onerror?.(error),
    };
    this.wire = era === '2026-07-28' ? new ModernWire(http, events) : new LegacyWire(http, events);
  }

  async start(): Promise<void> {
    // Nothing to open: each message makes its own request.
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The MCP test client is closed'));
    return this.wire.send(message);
  }

  setProtocolVersion(version: string): void {
    this.wire.setProtocolVersion(version);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.wire.close();
    this.onclose?.();
  }
}
