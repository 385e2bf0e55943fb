import { createConnection } from 'node:net';
import { RedisServer } from './redis-server.js';

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('RedisServer', () => {
  it('starts a real redis-server of its own on loopback, empty and without persistence, and stops it', async () => {
    const [one, two] = await Promise.all([RedisServer.start(), RedisServer.start()]);
    try {
      expect(one.port).not.toBe(two.port);
      expect(one.url).toBe(`redis://127.0.0.1:${one.port}`);
      expect(await one.command('PING')).toBe('+PONG');
      expect(await one.command('SET', 'k', 'v')).toBe('+OK');
      expect(await one.command('DBSIZE')).toBe(':1');
      expect(await two.command('DBSIZE')).toBe(':0');
      expect(await one.command('CONFIG', 'GET', 'save')).toBe('*2\r\n$4\r\nsave\r\n$0\r\n');
      expect(await one.command('CONFIG', 'GET', 'appendonly')).toBe('*2\r\n$10\r\nappendonly\r\n$2\r\nno');
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
    expect(await refused(one.port)).toBe(true);
  });
});
