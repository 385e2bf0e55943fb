import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** What `promise` rejected with; fails the test if it resolved. */
export function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (reason: unknown) => reason,
  );
}

/** The McpError (an SDK client's JSON-RPC error) `promise` rejected with; fails the test otherwise. */
export async function mcpErrorOf(promise: Promise<unknown>): Promise<McpError> {
  const reason = await thrown(promise);
  expect(reason).toBeInstanceOf(McpError);
  return reason as McpError;
}

/** The code, message and data of the JSON-RPC error a rejected SDK request carried. */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  const { code, message, data } = await mcpErrorOf(promise);
  return { code, message, data };
}

/** What `fn` threw; fails the test if it returned. */
export function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error, got none');
}
