import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP server that hands the real ServerResponse of every request to `handle`. */
export interface ResponseServer {
  /** What each request's response is given to; a test sets it before sending its request. */
  handle: (res: ServerResponse) => void;
  /** The port it listens on on 127.0.0.1, known once `beforeAll` has run. */
  readonly port: number;
}

/**
 * A ResponseServer listening from before the first test of the enclosing `describe` until after its
 * last one. Request bodies are read and dropped.
 */
export function useResponseServer(): ResponseServer {
  let server: Server | undefined;
  const responses = {
    handle: (_res: ServerResponse): void => {
      throw new Error('this test set no response handler');
    },
    port: 0,
  };

  beforeAll(async () => {
    const listening = createServer((req, res) => {
      req.resume();
      responses.handle(res);
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    responses.port = (listening.address() as AddressInfo).port;
  });

  afterAll(async () => {
    const listening = server;
    if (listening === undefined) return;
    listening.closeAllConnections();
    await new Promise((resolve) => listening.close(resolve));
  });

  return responses;
}
