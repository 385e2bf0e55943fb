// The real components the tests run against (`pretest`: the first thing `npm test` does; `.ci/run`
// calls it too): Redis's `redis-server`, which the Redis specs start on a free loopback port, and a
// Chromium, which the browser specs drive headless through playwright-core. Never mocks, never
// skipped: when one is missing it is installed, or the run stops here with one line saying how.
//
// For each component, in order:
//   1. the variable (`REDIS_SERVER`, `CHROMIUM_PATH`): an executable file, used as it is (a path that
//      is not one is an error, never silently replaced by another binary);
//   2. the PATH: `redis-server`; `chromium`, then `chromium-browser` (not Ubuntu's snap wrapper);
//   3. Debian or Ubuntu, as root or with password-less sudo (`sudo -n`): `apt-get install` of each
//      missing package (Ubuntu has no Chromium deb: there it says to install Google Chrome);
//   4. otherwise: exit code 1 and one line naming the command for this system (apt-get, dnf, brew,
//      pacman, apk) and the variables that point at binaries already installed elsewhere.
//
// When everything is there it only looks at the PATH: no process is started (well under a second).
// Usage: node scripts/test-components.mjs [--quiet]
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the tests need, how each is found, and its package on each kind of system. */
export const COMPONENTS = [
  {
    label: 'redis-server',
    variable: 'REDIS_SERVER',
    commands: ['redis-server'],
    packages: { apt: 'redis-server', dnf: 'redis', brew: 'redis', pacman: 'redis', apk: 'redis' },
  },
  {
    label: 'chromium',
    variable: 'CHROMIUM_PATH',
    commands: ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'],
    packages: { apt: 'chromium', dnf: 'chromium', brew: 'chromium', pacman: 'chromium', apk: 'chromium' },
    brewCask: true,
    // Ubuntu's `chromium` and `chromium-browser` debs are wrappers that install a snap: no use in
    // containers, CI images or WSL, where snap does not run.
    notOnUbuntu: true,
    usable: (path) => !isSnapWrapper(path),
  },
];

/** The install command a person runs, per package manager, for `components`. */
const INSTALL_COMMANDS = {
  apt: (names) => `sudo apt-get install -y --no-install-recommends ${names.join(' ')}`,
  dnf: (names) => `sudo dnf install -y ${names.join(' ')}`,
  pacman: (names) => `sudo pacman -S --needed ${names.join(' ')}`,
  apk: (names) => `sudo apk add ${names.join(' ')}`,
};

function installCommand(manager, components) {
  if (manager === 'brew') {
    const formulae = components.filter((component) => !component.brewCask).map((component) => component.packages.brew);
    const casks = components.filter((component) => component.brewCask).map((component) => component.packages.brew);
    return [
      ...(formulae.length > 0 ? [`brew install ${formulae.join(' ')}`] : []),
      ...(casks.length > 0 ? [`brew install --cask ${casks.join(' ')}`] : []),
    ].join(' && ');
  }
  return INSTALL_COMMANDS[manager](components.map((component) => component.packages[manager]));
}

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Ubuntu's snap wrapper (`/usr/bin/chromium-browser`): a shell script that runs the snap, or asks for it. */
function isSnapWrapper(path) {
  try {
    const head = readFileSync(path, { encoding: 'latin1' }).slice(0, 4096);
    return head.startsWith('#!') && head.includes('snap');
  } catch {
    return false;
  }
}

/** The first of `commands` on the PATH that `usable` takes, as an absolute path; undefined when none is. */
export function onPath(commands, pathVariable = process.env.PATH ?? '', usable = () => true) {
  const folders = pathVariable.split(delimiter).filter(Boolean);
  for (const command of commands) {
    for (const folder of folders) {
      const candidate = resolve(folder, command);
      if (isExecutableFile(candidate) && usable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * Where `component` is: `{ path }`, or `{ problem }` when its variable names something that is not an
 * executable file, or `{}` when it is nowhere.
 */
export function locate(component, env = process.env) {
  const configured = env[component.variable];
  if (configured) {
    return isExecutableFile(configured)
      ? { path: configured }
      : { problem: `${component.variable}=${configured} is not an executable file` };
  }
  const path = onPath(component.commands, env.PATH ?? '', component.usable);
  return path ? { path } : {};
}

/** The system's package manager family: apt, dnf, brew, pacman, apk, or undefined. */
export function packageManager(platform = process.platform, osRelease = readOsRelease()) {
  if (platform === 'darwin') return 'brew';
  if (platform !== 'linux') return undefined;
  const ids = `${osRelease.ID ?? ''} ${osRelease.ID_LIKE ?? ''}`.split(/\s+/);
  if (ids.some((id) => id === 'debian' || id === 'ubuntu')) return 'apt';
  if (ids.some((id) => ['fedora', 'rhel', 'centos'].includes(id))) return 'dnf';
  if (ids.some((id) => id === 'arch')) return 'pacman';
  if (ids.includes('alpine')) return 'apk';
  return undefined;
}

/** Whether the system is Ubuntu or one built on it. */
export function isUbuntu(osRelease = readOsRelease()) {
  return `${osRelease.ID ?? ''} ${osRelease.ID_LIKE ?? ''}`.split(/\s+/).includes('ubuntu');
}

function readOsRelease() {
  try {
    const fields = {};
    for (const line of readFileSync('/etc/os-release', 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line);
      if (match) fields[match[1]] = match[2].replace(/^"(.*)"$/, '$1');
    }
    return fields;
  } catch {
    return {};
  }
}

/** The one line that says what to run, for `missing` components on this system. */
export function installAdvice(missing, manager, ubuntu = false) {
  const variables = missing.map((component) => `${component.variable}=/path/to/${component.commands[0]}`).join(' ');
  const names = missing.map((component) => component.label).join(' and ');
  const packaged = ubuntu ? missing.filter((component) => !component.notOnUbuntu) : missing;
  const parts = [];
  if (packaged.length > 0) {
    parts.push(
      manager
        ? `run \`${installCommand(manager, packaged)}\``
        : `install ${packaged.length > 1 ? 'them' : 'it'} with your system's package manager`,
    );
  }
  if (packaged.length < missing.length) {
    parts.push('install Google Chrome (or a Chromium that is not the snap wrapper), since Ubuntu has no Chromium deb');
  }
  return `npm test needs ${names}: ${parts.join(', and ')}; or set ${variables} for binaries you already have, then run npm test again`;
}

/** `['sudo', '-n']` when sudo works without asking, `[]` as root, undefined when neither. */
function privilege() {
  if (process.getuid?.() === 0) return [];
  const probe = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return probe.status === 0 ? ['sudo', '-n'] : undefined;
}

function run(command, args, log) {
  log(`test-components: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

/**
 * Installs `missing` with apt-get when that can be done without a question, each package on its own
 * (one that fails leaves the others installed).
 */
function aptInstall(missing, ubuntu, log) {
  const installable = ubuntu ? missing.filter((component) => !component.notOnUbuntu) : missing;
  const prefix = installable.length > 0 ? privilege() : undefined;
  if (!prefix) return;
  const [command, ...args] = [...prefix, 'apt-get'];
  if (!run(command, [...args, 'update', '-qq'], log)) return;
  for (const component of installable) {
    run(command, [...args, 'install', '-y', '-qq', '--no-install-recommends', component.packages.apt], log);
  }
}

/** Finds, or installs, every component; returns the exit code and writes what happened. */
export function ensureComponents({ quiet = false } = {}) {
  const log = (line) => {
    if (!quiet) console.log(line);
  };
  const fail = (line) => {
    console.error(`test-components: ${line}`);
    return 1;
  };
  const found = COMPONENTS.map((component) => ({ component, ...locate(component) }));
  const misconfigured = found.find((entry) => entry.problem);
  if (misconfigured) return fail(misconfigured.problem);
  let missing = found.filter((entry) => !entry.path).map((entry) => entry.component);
  if (missing.length > 0) {
    const manager = packageManager();
    const ubuntu = manager === 'apt' && isUbuntu();
    if (manager === 'apt') aptInstall(missing, ubuntu, log);
    missing = missing.filter((component) => !locate(component).path);
    if (missing.length > 0) return fail(installAdvice(missing, manager, ubuntu));
  }
  for (const component of COMPONENTS) log(`test-components: ${component.label} ${locate(component).path}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = ensureComponents({ quiet: process.argv.includes('--quiet') });
}
