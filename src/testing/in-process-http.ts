import type { Server } from 'node:http';
import { sendInProcess, type HttpReply } from '../in-process/in-process-request.js';

export type { HttpReply } from '../in-process/in-process-request.js';

/**
 * The testing kit's requests to the MCP endpoint of an application, inside the process (see
 * `sendInProcess`), each with the headers every request of the test client carries. Its
 * connections are trusted by the endpoint's door: there is no browser and no DNS inside a test.
 */
export class InProcessHttp {
  /**
   * @param server the application's HTTP server (`app.getHttpServer()`); it need not listen.
   * @param path the endpoint's path.
   * @param headers headers every request carries (names lower-cased), under those of the request.
   */
  constructor(
    private readonly server: Server,
    private readonly path: string,
    private readonly headers: Readonly<Record<string, string>>,
  ) {}

  /**
   * Sends a request; resolves once the answer's head arrived, rejects when no answer comes.
   * @param signal aborting it drops the connection, answered or not (the client cancelled).
   */
  request(
    method: string,
    headers: Readonly<Record<string, string>>,
    body?: string,
    signal?: AbortSignal,
  ): Promise<HttpReply> {
    return sendInProcess(this.server, {
      method,
      path: this.path,
      headers: { ...this.headers, ...headers },
      ...(body === undefined ? {} : { body }),
      trusted: true,
      ...(signal === undefined ? {} : { signal }),
    });
  }
}
