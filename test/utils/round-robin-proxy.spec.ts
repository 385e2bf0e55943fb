import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RoundRobinProxy } from './round-robin-proxy.js';

/** A backend that names itself, echoes the body it got, and streams `/events` a chunk at a time. */
async function backend(name: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: first from ${name}\n\n`);
      req.once('close', () => res.end());
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => res.writeHead(200, { 'x-backend': name }).end(`${name}:${req.method}:${body}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const stop = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('RoundRobinProxy', () => {
  let a: { server: Server; url: string };
  let b: { server: Server; url: string };
  let proxy: RoundRobinProxy;

  beforeEach(async () => {
    a = await backend('a');
    b = await backend('b');
    proxy = await RoundRobinProxy.start([a.url, b.url]);
  });

  afterEach(async () => {
    await proxy.close();
    await Promise.all([stop(a.server), stop(b.server)]);
  });

  it('sends each request to the next target in turn, bodies and headers both ways', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${proxy.url}/mcp`, { method: 'POST', body: `n${i}` });
      expect(response.status).toBe(200);
      answers.push(`${response.headers.get('x-backend')} ${await response.text()}`);
    }
    expect(answers).toEqual(['a a:POST:n0', 'b b:POST:n1', 'a a:POST:n2', 'b b:POST:n3']);
    expect(proxy.routed).toEqual([a.url, b.url, a.url, b.url]);
  });

  it('passes an event stream through as it is written, before it ends', async () => {
    const response = await fetch(`${proxy.url}/events`);
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe('data: first from a\n\n');
    await reader.cancel();
  });

  it('answers 502 for a target that is down, and leaves a removed one out of the rotation', async () => {
    await stop(a.server);
    expect((await fetch(`${proxy.url}/x`, { method: 'POST', body: '' })).status).toBe(502);
    proxy.remove(a.url);
    for (let i = 0; i < 3; i++) {
      expect(await (await fetch(`${proxy.url}/x`, { method: 'POST', body: `${i}` })).text()).toBe(`b:POST:${i}`);
    }
  });
});
