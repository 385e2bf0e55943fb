/**
 * `node dist/test/stdio/app/stdout-tee.js <dir> <main> [...args]`: runs `node <main> ...args` in
 * between a stdio client and the server it spawns, so that a test sees the server's raw stdout while
 * the official SDK clients (which keep their child's stdout to themselves) drive it. stdin is passed
 * through, stdout copied byte for byte into `<dir>/<pid>.out` as it is passed on, stderr inherited;
 * once the server is gone, `<dir>/<pid>.exit.json` says how it exited and which signals reached the
 * wrapper (none: it ended on the client's EOF), and the wrapper exits with the server's code. A file
 * per process: a client may spawn more than one from the same command line (the v2 client probes
 * `server/discover` on a sibling process first).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, main, ...args] = process.argv.slice(2);
if (dir === undefined || main === undefined) {
  process.stderr.write('usage: stdout-tee <dir> <main> [...args]\n');
  process.exit(2);
}
const capture = join(dir, String(process.pid));

const copy = createWriteStream(`${capture}.out`);
const server = spawn(process.execPath, [main, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
const signals: NodeJS.Signals[] = [];

process.stdin.pipe(server.stdin);
// A write after the server closed its stdin: its exit tells the rest.
server.stdin.on('error', () => undefined);
process.stdout.on('error', () => undefined);
server.stdout.on('data', (chunk: Buffer) => {
  copy.write(chunk);
  process.stdout.write(chunk);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    signals.push(signal);
    server.kill(signal);
  });
}

// 'close', not 'exit': every byte of its stdout has been read by then.
server.on('close', (code, signal) => {
  writeFileSync(`${capture}.exit.json`, JSON.stringify({ code, signal, signals }));
  copy.end(() => process.exit(code ?? 1));
});
