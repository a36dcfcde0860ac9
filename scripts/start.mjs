#!/usr/bin/env node
// `npm start`: build the extension, start a real VS Code (the VS Code server bundled with
// code-server) on 127.0.0.1 with this repository loaded as the extension under development,
// and print the URL to open in a browser. Ctrl+C stops the server and everything it started.
//
// Without --folder it opens a copy of samples/try-agent-link (kept in the cache between runs,
// renewed with --fresh): a trusted workspace made for trying Agent Link, with the SDK's example
// agent for chat and Agent Link NES (built in) for next edit suggestions already running. With
// --folder, your folder opens as in any VS Code: Workspace Trust applies.
//
//   npm start -- [--target latest|min] [--port 8080] [--folder <dir>] [--skip-build] [--fresh] [--verbose]
//                [--extension <dir>]   (another extension folder instead of this repository)
//
// How the extension is loaded: through the workbench URL's payload
// `[["extensionDevelopmentPath","vscode-remote://127.0.0.1:PORT/<repo>"]]` (the same mechanism the
// test runner uses; verified on VS Code 1.100.3 and 1.139.1). So open the printed URL as is; a
// plain http://127.0.0.1:PORT/ opens VS Code without the extension. The server is started with
// --enable-smoke-test-driver, which 1.139 needs to honour that payload.
//
// User settings and state are kept between runs in <cache>/start-profile-<target>/ (see
// test/vscode/runner/common.mjs cacheRoot); --fresh uses a throwaway profile instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import { REPO_ROOT, cacheRoot, isPortFree, freePort, log } from '../test/vscode/runner/common.mjs';
import { ensureDependencies } from './bootstrap.mjs';
import { ensureVSCode } from '../test/vscode/runner/install.mjs';
import { remoteUri, startServer, workbenchUrl } from '../test/vscode/runner/run.mjs';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    port: { type: 'string', default: '8080' },
    folder: { type: 'string' },
    extension: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  process.stdout.write('usage: npm start -- [--target latest|min] [--port 8080] [--folder <dir>] [--extension <dir>] [--skip-build] [--fresh] [--verbose]\n');
  process.exit(0);
}

/** Installs the npm dependencies on a fresh clone, then builds the extension bundle. */
async function build() {
  ensureDependencies();
  log('building the extension');
  const code = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--only=extension,nes-agent'], { cwd: REPO_ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new Error(`the build failed (exit ${code})`);
}

/** A copy of samples/try-agent-link in the cache, so trying things out never changes the repository. */
async function sampleWorkspace(fresh) {
  const target = path.join(cacheRoot(), 'try-agent-link');
  if (fresh) await fs.rm(target, { recursive: true, force: true });
  if (!existsSync(target)) {
    await fs.cp(path.join(REPO_ROOT, 'samples', 'try-agent-link'), target, { recursive: true });
  }
  return target;
}

async function main() {
  if (!values['skip-build']) await build();

  /** @type {'min' | 'latest'} */
  let target = values.target === 'min' ? 'min' : 'latest';
  if (values.target && values.target !== 'min' && values.target !== 'latest') {
    throw new Error(`--target must be latest or min, not ${values.target}`);
  }
  try {
    await ensureVSCode(target);
  } catch (error) {
    if (values.target) throw error;
    log(`could not install the latest VS Code, falling back to min: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    target = 'min';
    await ensureVSCode(target);
  }

  let port = Number(values.port);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`bad --port ${values.port}`);
  if (!(await isPortFree(port))) {
    const wanted = port;
    port = await freePort();
    log(`port ${wanted} is busy, using ${port}`);
  }

  const sample = values.folder === undefined;
  const folder = sample ? await sampleWorkspace(values.fresh) : path.resolve(values.folder);
  if (!existsSync(folder)) throw new Error(`--folder ${folder} does not exist`);

  // always a private temp dir: the server's TMPDIR (its vscode-ipc/vscode-git sockets), plus the
  // whole profile with --fresh
  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-link-start-'));
  const dataDir = values.fresh ? path.join(tempDir, 'profile') : path.join(cacheRoot(), `start-profile-${target}`);
  const server = await startServer({
    target,
    dataDir,
    tmpDir: path.join(tempDir, 'tmp'),
    port,
    // Your own folder: behave like a normal VS Code, trust prompts and restricted mode apply.
    // The sample workspace is made for trying Agent Link, so it is trusted and the agents start.
    workspaceTrust: !sample,
    keepExistingSettings: true, // settings changed in the UI survive restarts
    // A chat agent that works without installing anything (the example agent of the ACP SDK);
    // next edit suggestions come from Agent Link NES (built in), the default NES agent.
    userSettings: {
      'agentLink.agents': {
        'ACP SDK Example Agent': { command: process.execPath, args: [path.join(REPO_ROOT, 'node_modules', 'acp-sdk-1-9', 'dist', 'examples', 'agent.js')] },
      },
      'agentLink.defaultAgent': 'ACP SDK Example Agent',
      'agentLink.nes.agent': 'Agent Link NES (built in)',
    },
    echo: values.verbose,
  });

  const extension = path.resolve(values.extension ?? REPO_ROOT);
  const url = workbenchUrl(server.port, folder, [['extensionDevelopmentPath', remoteUri(server.port, extension)]]);
  process.stdout.write(`\nVS Code ${server.install.vscodeVersion} (code-server ${server.install.version}) is running with the extension from ${extension}\n`
    + `Open this URL in a browser (on another machine, forward port ${server.port} first, e.g. ssh -L ${server.port}:127.0.0.1:${server.port}):\n\n`
    + `  ${url}\n\n${sample ? `It opens ${folder}, a workspace for trying Agent Link: its README.md says what to type to see a next edit suggestion.\n` : ''}Press Ctrl+C to stop.\n`);

  let stopping = false;
  const stop = async (/** @type {number} */ code) => {
    if (stopping) return;
    stopping = true;
    log('stopping VS Code server');
    await server.stop();
    await fs.rm(tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  const exitCode = await server.exited;
  if (!stopping) {
    process.stderr.write(`VS Code server exited by itself (code ${exitCode}). Output:\n${server.output().slice(-4000)}\n`);
    await stop(1);
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
