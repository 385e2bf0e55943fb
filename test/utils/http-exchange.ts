import http from 'node:http';

/** What one raw HTTP exchange returned. */
export interface HttpResult {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

export interface HttpExchangeOptions {
  /** How long the whole exchange may take before it fails; 3 s unless given. */
  readonly timeoutMs?: number;
}

/**
 * One HTTP exchange with exact headers: nothing is added but Host, and no agent is shared. A GET
 * answered with 200 (an SSE stream) resolves with its status and headers as soon as they arrive,
 * with an empty text, and is then aborted; any other answer is read to its end.
 */
export function httpExchange(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
  options: HttpExchangeOptions = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      if (method === 'GET' && status === 200) {
        resolve({ status, headers: res.headers, text: '' });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // Once resolved, the abort of a GET stream (or any later error) can no longer change the result.
    req.on('error', reject);
    req.setTimeout(options.timeoutMs ?? 3000, () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.end(body);
  });
}
