import type { Provider } from '@nestjs/common';
import { StdioServer } from './stdio-server.js';

/** What a `transport: 'stdio'` module adds to the core: its server, in place of the HTTP controller. */
export const STDIO_PROVIDERS: Provider[] = [StdioServer];
