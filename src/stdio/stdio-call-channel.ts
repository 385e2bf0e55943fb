import type { CallChannel } from '../execution/call-channel.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import type { StdioOutput } from './stdio-output.js';

/**
 * The way back for the messages of one request (progress, log messages, a 2025 server request):
 * stdout, the one channel of stdio, until the request has its answer or was cancelled ("MUST NOT
 * send any further messages for it").
 */
export class StdioCallChannel implements CallChannel {
  private open = true;

  /** @param live whether the caller can still hear (a 2025 session that ended cannot). */
  constructor(
    private readonly output: StdioOutput,
    private readonly live: () => boolean = () => true,
  ) {}

  send(message: JsonRpcMessage): boolean {
    return this.open && this.live() && this.output.send(message);
  }

  sendEncoded(data: string): boolean {
    return this.open && this.live() && this.output.write(data);
  }

  /** stdio is one stream that stays: there is no connection of a request to close and resume. */
  closeConnection(): boolean {
    return false;
  }

  /** The request was answered or cancelled: nothing more goes out for it. */
  close(): void {
    this.open = false;
  }
}
