import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { WireEvents } from './wire.js';

type Params = Record<string, unknown>;

/** What an error answer carries, as JSON-RPC writes it. */
export interface AskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The client's answers to one round, by the keys of its `inputRequests`; or why it could not answer. */
export type RoundAnswers = { readonly responses: Params } | { readonly error: AskError };

/**
 * The questions of 2026-07-28 input rounds, put to the client as JSON-RPC requests of the server
 * (ids of their own, `mcp42-testing-input-<n>`) so that its elicitation, sampling and roots
 * handlers answer them as they answer a 2025 server; the answers come back through the transport.
 */
export class InputAsks {
  private next = 0;
  private readonly pending = new Map<RequestId, (answer: JSONRPCMessage | AskError) => void>();

  constructor(private readonly events: WireEvents) {}

  /** Asks every request of a round at once; resolves when all are answered, or with the first error. */
  async ask(requests: Params): Promise<RoundAnswers> {
    const entries = Object.entries(requests);
    const answers = await Promise.all(entries.map(([, request]) => this.one(request as Params)));
    const responses: Params = {};
    for (const [index, [key, request]] of entries.entries()) {
      const answer = answers[index]!;
      if ('code' in answer) return { error: answer };
      if ('error' in answer) {
        const { code, message, data } = answer.error;
        const method = String((request as Params).method);
        return {
          error: {
            code,
            message: `The client refused ${method} ("${key}"): ${message}`,
            ...(data === undefined ? {} : { data }),
          },
        };
      }
      if ('result' in answer) responses[key] = answer.result;
    }
    return { responses };
  }

  /** The client's answer to one of the questions: the request it answers is settled. */
  answer(message: JSONRPCMessage): void {
    if (!('id' in message) || message.id === undefined) return;
    const settle = this.pending.get(message.id);
    this.pending.delete(message.id);
    settle?.(message);
  }

  /** The client closed: questions still open are answered with an error. */
  cancelAll(): void {
    for (const settle of this.pending.values()) settle({ code: -32000, message: 'The client closed' });
    this.pending.clear();
  }

  private one(request: Params): Promise<JSONRPCMessage | AskError> {
    const id = `mcp42-testing-input-${++this.next}`;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.events.deliver({
        jsonrpc: '2.0',
        id,
        method: String(request.method),
        params: (request.params ?? {}) as Params,
      } as JSONRPCMessage);
    });
  }
}
