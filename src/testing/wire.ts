import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** What a wire hands back to the transport: messages for the client, and failures outside any call. */
export interface WireEvents {
  deliver(message: JSONRPCMessage): void;
  fail(error: Error): void;
}

/** How one era's HTTP carries the client's messages. */
export interface Wire {
  /** Sends one message; settles once the HTTP exchanges it needed have ended. */
  send(message: JSONRPCMessage): Promise<void>;
  /** The version the client settled on in its handshake. */
  setProtocolVersion(version: string): void;
  /** Ends what is open (streams, the session). */
  close(): Promise<void>;
}

export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: JSONRPCMessage): boolean {
  return 'method' in message && !('id' in message);
}

/** The id of a request, or undefined for anything else. */
export function requestIdOf(message: JSONRPCMessage): RequestId | undefined {
  return isRequest(message) ? message.id : undefined;
}
