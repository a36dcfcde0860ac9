// Small helpers shared by install.mjs, run.mjs and scripts/start.mjs.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

import { lineSplitter, stampLines } from './progress.mjs';

/** Folder of this file. */
export const RUNNER_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Repository root (two levels above this runner folder's parent: test/vscode/runner -> repo). */
export const REPO_ROOT = path.resolve(RUNNER_DIR, '..', '..', '..');

/**
 * Prints a progress message to stderr (stdout is reserved for test output), each line stamped.
 * @param {...unknown} args
 */
export function log(...args) {
  process.stderr.write(stampLines(args.map(String).join(' ')));
}

/**
 * A function to feed a child process's output to: each line is printed on stderr with its own
 * stamp, the time it arrived.
 * @returns {((chunk: Buffer | string) => void) & { flush: () => void }}
 */
export function stampedEcho() {
  return lineSplitter((line) => process.stderr.write(stampLines(line)));
}

/**
 * Where code-server installs are cached, outside the repository.
 * `$AGENT_LINK_TEST_CACHE`, else `$XDG_CACHE_HOME/agent-link-test`, else `~/.cache/agent-link-test`.
 * @returns {string}
 */
export function cacheRoot() {
  if (process.env.AGENT_LINK_TEST_CACHE) return path.resolve(process.env.AGENT_LINK_TEST_CACHE);
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'agent-link-test');
}

/**
 * Runs a command, collecting its combined output; resolves with the exit code and output.
 * `echo` prints each line of it as it comes (stamped), `onLine` is given each line as it comes.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { echo?: boolean, onLine?: (line: string) => void }} [options]
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, output: string }>}
 */
export function runCommand(command, args, options = {}) {
  const { echo = false, onLine, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const chunks = [];
    // stdout and stderr each split into lines of their own, so the two never mix within a line
    const streams = [child.stdout, child.stderr].map((stream) => {
      const lines = lineSplitter((line) => {
        if (echo) process.stderr.write(stampLines(line));
        onLine?.(line);
      });
      stream?.on('data', (/** @type {Buffer} */ chunk) => {
        chunks.push(chunk);
        lines(chunk);
      });
      return lines;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const lines of streams) lines.flush();
      resolve({ code, signal, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/**
 * Last `lines` lines of a text.
 * @param {string} text
 * @param {number} [lines]
 */
export function tail(text, lines = 60) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Resolves a command name on PATH to an absolute path, or undefined.
 * @param {string} name
 * @param {string} [pathEnv]
 * @returns {string | undefined}
 */
export function which(name, pathEnv = process.env.PATH ?? '') {
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Checks whether a TCP port on 127.0.0.1 can be bound.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function isPortFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Asks the OS for a free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until the server answers HTTP (any status), or throws after `timeoutMs`.
 * @param {string} url
 * @param {{ timeoutMs?: number, isAlive?: () => boolean }} [options]
 */
export async function waitForHttp(url, { timeoutMs = 60_000, isAlive = () => true } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`server process exited before answering ${url}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms (${lastError})`);
}

/**
 * Sends `signal` to a whole process group; ignores "no such process".
 * @param {number} pgid
 * @param {NodeJS.Signals} signal
 * @returns {boolean} whether the group still existed
 */
export function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends a process group without waiting for it: SIGTERM now, and a detached reaper that sends
 * SIGKILL after `graceMs` and then removes `dirs` (which the group's processes may still write to
 * as they shut down). For a run whose state nobody reads again: the next run starts meanwhile.
 * @param {number} pgid
 * @param {string[]} dirs
 * @param {number} [graceMs]
 */
export function endGroupLater(pgid, dirs, graceMs = 3_000) {
  const quoted = dirs.map((d) => `'${d.replaceAll("'", "'\\''")}'`).join(' ');
  signalGroup(pgid, 'SIGTERM');
  spawn('sh', ['-c', `sleep ${graceMs / 1000}; kill -KILL -- -${pgid} 2>/dev/null; rm -rf ${quoted}`], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * Kills a process group: SIGTERM, then SIGKILL after `graceMs` if any member is left.
 * @param {number} pgid
 * @param {number} [graceMs]
 */
export async function killGroup(pgid, graceMs = 3_000) {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    if (!signalGroup(pgid, 0)) return;
  }
  signalGroup(pgid, 'SIGKILL');
}
