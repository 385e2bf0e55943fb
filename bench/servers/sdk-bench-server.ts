import type { Server } from 'node:http';
import { endpointUrl, type BenchServer } from './bench-server.js';
import type { SdkSessions } from './sdk-sessions.js';

/** The BenchServer of a listening `server` whose MCP requests `sessions` handles; closing ends every session first. */
export function sdkBenchServer(server: Server, sessions: SdkSessions): BenchServer {
  return {
    url: endpointUrl(server.address()),
    sessionCount: () => sessions.size,
    close: async () => {
      await sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
