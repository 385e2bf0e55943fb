/**
 * npm test's first step (scripts/test-components.mjs): finds redis-server and Chromium, installs them
 * when it can do so without a question, and otherwise stops with one line saying how. Run as npm runs
 * it, in a child process, with the environment under test.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve('scripts', 'test-components.mjs');

function runScript(env: NodeJS.ProcessEnv): { status: number | null; stdout: string[]; stderr: string[] } {
  const result = spawnSync(process.execPath, [SCRIPT], { env, encoding: 'utf8', timeout: 30_000 });
  const lines = (text: string) => text.split('\n').filter((line) => line !== '');
  return { status: result.status, stdout: lines(result.stdout), stderr: lines(result.stderr) };
}

describe('npm test first step: the real components', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp42-components-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds both on this machine and names them', () => {
    const { status, stdout, stderr } = runScript(process.env);
    expect({ status, stderr }).toEqual({ status: 0, stderr: [] });
    expect(stdout).toEqual([
      expect.stringMatching(/^test-components: redis-server \/.+/),
      expect.stringMatching(/^test-components: chromium \/.+/),
    ]);
  });

  it('takes REDIS_SERVER and CHROMIUM_PATH as they are', () => {
    const fake = join(dir, 'fake-binary');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    const { status, stdout } = runScript({ ...process.env, REDIS_SERVER: fake, CHROMIUM_PATH: fake });
    expect(status).toBe(0);
    expect(stdout).toEqual([`test-components: redis-server ${fake}`, `test-components: chromium ${fake}`]);
  });

  it('stops with one line when a variable names something that is not an executable file', () => {
    const { status, stderr } = runScript({ ...process.env, REDIS_SERVER: join(dir, 'missing') });
    expect(status).toBe(1);
    expect(stderr).toEqual([`test-components: REDIS_SERVER=${join(dir, 'missing')} is not an executable file`]);
  });

  it('without them and without a way to install them, stops at once with one line naming the command', () => {
    // A PATH holding only node: neither component, nor apt-get or sudo to install them with.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: bin };
    delete env.REDIS_SERVER;
    delete env.CHROMIUM_PATH;
    const { status, stderr } = runScript(env);
    expect(status).toBe(1);
    expect(stderr).toEqual([
      expect.stringMatching(
        /^test-components: npm test needs redis-server and chromium: (run `.+`|install them with .+); or set REDIS_SERVER=\/path\/to\/redis-server CHROMIUM_PATH=\/path\/to\/chromium for binaries you already have, then run npm test again$/,
      ),
    ]);
  });
});
