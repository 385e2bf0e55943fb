import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageFile } from '../utils/page-server.js';

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'sdk-client.entry.ts');

/**
 * The files of a page that runs the official SDK client (./sdk-client.entry.ts, bundled for the
 * browser as one classic script), for a page server: `/` and `/sdk-client.js`.
 */
export async function sdkPageFiles(): Promise<Record<string, PageFile>> {
  const { outputFiles } = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return {
    '/': {
      contentType: 'text/html; charset=utf-8',
      // An empty icon: the browser would ask for /favicon.ico, and log its 404 as the page's error.
      body:
        '<!doctype html><title>mcp42 browser client</title><link rel="icon" href="data:,">' +
        '<script src="/sdk-client.js"></script>',
    },
    '/sdk-client.js': { contentType: 'text/javascript; charset=utf-8', body: outputFiles[0].text },
  };
}
