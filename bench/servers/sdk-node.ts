import { createServer } from 'node:http';
import { HOST, type BenchServer } from './bench-server.js';
import { sdkBenchServer } from './sdk-bench-server.js';
import { SdkSessions } from './sdk-sessions.js';

/** The SDK transport on plain `node:http`: no framework, the transport reads bodies itself. */
export async function startSdkNode(): Promise<BenchServer> {
  const sessions = new SdkSessions();
  const server = createServer((req, res) => {
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    sessions.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return sdkBenchServer(server, sessions);
}
