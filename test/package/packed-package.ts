/**
 * The package as `npm pack` makes it, unpacked where an application's node_modules would hold it: the
 * published build (scripts/build-package.mjs, the one `prepack` runs) made into a staging folder
 * beside the repository's package.json, README, CHANGELOG and LICENSE, packed there with npm itself
 * (its `files` selection, its manifest), and the tarball extracted to `<app>/node_modules/mcp42`.
 * Nothing of the repository is written: `dist/` is left to the other builds.
 *
 * Its dependencies and peers are the repository's own: `<app>/node_modules/mcp42/node_modules` links
 * to the root's node_modules, and the peers an app has are linked beside it.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The peers an application installs beside mcp42 (and Nest's platform, for its HTTP server). */
const APP_PACKAGES = ['@nestjs', 'reflect-metadata', 'rxjs', 'class-validator', 'class-transformer'];

/** What an application may install besides: the optional peers of the subpath exports, the official SDK clients. */
const OPTIONAL_PACKAGES = ['ioredis', 'jose', '@modelcontextprotocol', '@opentelemetry'];

export interface PackedPackage {
  /** The application folder: `node_modules/mcp42` is the unpacked tarball. */
  readonly appDir: string;
  /** `<appDir>/node_modules/mcp42`. */
  readonly packageDir: string;
  /** The paths in the tarball, as npm reports them (`package.json`, `dist/cjs/index.js`, ...). */
  readonly files: readonly string[];
  /** The manifest as packed. */
  readonly manifest: Record<string, unknown>;
}

/**
 * Packs the package in `workDir` (a fresh temporary folder) and unpacks it into `<workDir>/app`, beside
 * the peers an application installs (with `optionalPeers`, also ioredis, jose and the SDK clients).
 */
export async function packedPackage(
  workDir: string,
  options: { readonly optionalPeers?: boolean } = {},
): Promise<PackedPackage> {
  const stage = join(workDir, 'stage');
  await mkdir(stage, { recursive: true });
  await run(process.execPath, [join(ROOT, 'scripts', 'build-package.mjs'), '--out-dir', join(stage, 'dist')], {
    cwd: ROOT,
  });
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    await copyFile(join(ROOT, file), join(stage, file));
  }
  // The manifest as `prepack` makes it: without the development fields.
  await run(process.execPath, [join(ROOT, 'scripts', 'pack-manifest.mjs'), 'strip', '--dir', stage]);
  // The build is made above: no prepack (it would build into the stage again) nor any other script.
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workDir], {
    cwd: stage,
  });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  const appDir = join(workDir, 'app');
  const packageDir = join(appDir, 'node_modules', 'mcp42');
  await mkdir(packageDir, { recursive: true });
  await run('tar', ['-xzf', join(workDir, packed.filename), '-C', packageDir, '--strip-components=1']);
  await symlink(join(ROOT, 'node_modules'), join(packageDir, 'node_modules'), 'dir');
  for (const name of options.optionalPeers ? [...APP_PACKAGES, ...OPTIONAL_PACKAGES] : APP_PACKAGES) {
    await symlink(join(ROOT, 'node_modules', name), join(appDir, 'node_modules', name), 'dir');
  }
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { appDir, packageDir, files: packed.files.map((file) => file.path).sort(), manifest };
}
