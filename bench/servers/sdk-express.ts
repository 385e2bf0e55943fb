import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { HOST, type BenchServer } from './bench-server.js';
import { sdkBenchServer } from './sdk-bench-server.js';
import { SdkSessions } from './sdk-sessions.js';

type ParsedRequest = IncomingMessage & { body?: unknown };
type Route = (req: ParsedRequest, res: ServerResponse) => Promise<void>;

/**
 * What is used here of the app `createMcpExpressApp()` makes: express' types are not installed. A route
 * may return a promise: Express 5 hands its rejection to the error handler.
 */
interface ExpressApp {
  post(path: string, route: Route): void;
  delete(path: string, route: Route): void;
  listen(port: number, host: string, callback: (error?: Error) => void): Server;
}

/**
 * The SDK as its examples serve it: `createMcpExpressApp()` (Express, `express.json()`, localhost
 * Host-header validation) with POST and DELETE `/mcp` routed to the session's transport.
 */
export async function startSdkExpress(): Promise<BenchServer> {
  const sessions = new SdkSessions();
  const app = createMcpExpressApp({ host: HOST }) as ExpressApp;
  const route: Route = (req, res) => sessions.handle(req, res, req.body);
  app.post('/mcp', route);
  app.delete('/mcp', route);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening: Server = app.listen(0, HOST, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  return sdkBenchServer(server, sessions);
}
