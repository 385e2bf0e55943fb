import { Agent, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

const REQUEST_TIMEOUT_MS = 10_000;

export interface HttpReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One HTTP request on a keep-alive `agent`, the whole body read as text. */
export function send(
  agent: Agent,
  method: 'POST' | 'DELETE',
  url: string,
  headers: OutgoingHttpHeaders,
  body?: string,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.end(body);
  });
}

/** A keep-alive agent for `sockets` concurrent requests; destroy it to close its connections. */
export function keepAliveAgent(sockets = 1): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets });
}
