import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, sep } from 'node:path';

/** A file a page server answers with. */
export interface PageFile {
  readonly contentType: string;
  readonly body: string | Uint8Array;
}

/** A static web server on its own loopback port: a browser page's origin. */
export interface PageServer {
  /** `http://127.0.0.1:<port>`, as the browser sends it in `Origin`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `files` (by path, e.g. `/`) on 127.0.0.1:0; anything else is 404. */
export async function startPageServer(files: Readonly<Record<string, PageFile>>): Promise<PageServer> {
  const server = createServer((req, res) => {
    const file = Object.hasOwn(files, req.url ?? '') ? files[req.url!] : undefined;
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

/**
 * Every file under `dir` (a built static site), by the path a browser asks for it with: `/a/b.html`,
 * and `/a/` for `/a/index.html`. Read once, so the server answers from memory.
 */
export async function directoryFiles(dir: string): Promise<Record<string, PageFile>> {
  const files: Record<string, PageFile> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name).slice(dir.length).split(sep).join('/');
    const file = {
      contentType: CONTENT_TYPES[extname(entry.name)] ?? 'application/octet-stream',
      body: await readFile(join(entry.parentPath, entry.name)),
    };
    files[path] = file;
    if (entry.name === 'index.html') files[path.slice(0, -'index.html'.length)] = file;
  }
  return files;
}
