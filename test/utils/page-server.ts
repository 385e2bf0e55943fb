import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A file a page server answers with. */
export interface PageFile {
  readonly contentType: string;
  readonly body: string;
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
