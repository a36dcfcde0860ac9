#!/usr/bin/env node
// `npm start`: build what the packaged extension ships (scripts/build.mjs --shipped), start a real
// VS Code (the VS Code server bundled with code-server) on 127.0.0.1 with this repository loaded as
// the extension under development, and print the URL to open in a browser. Ctrl+C stops the server
// and everything it started. The first start on a machine installs that VS Code into the cache
// (minutes, with its progress printed); every later start, from any clone, uses it from there.
//
// Without --folder it opens a new copy of samples/try-agent-link, as shipped, on every start (the
// browser saves as you type, so a kept copy would no longer match its README; --keep-sample
// reopens the last copy with your changes): a trusted workspace made for trying Agent Link, with
// the SDK's example agent and Agent Link NES (built in) already running, and its README.md open.
// With --folder, your folder opens as in any VS Code: Workspace Trust applies.
//
//   npm start -- [--target latest|min] [--port 8080] [--folder <dir>] [--keep-sample] [--skip-build]
//                [--fresh] [--verbose] [--extension <dir>]   (another extension folder instead of this repository)
//
// How the extension is loaded: linked into the profile's extensions folder (scripts/linkExtension.mjs),
// so VS Code loads it from this repository as an installed extension. Not through the workbench
// URL's payload as the test runner does: on VS Code 1.139 that needs the server's
// --enable-smoke-test-driver, which also hides every notification toast and refuses modal dialogs.
//
// User settings and state are kept between runs in <cache>/start-profile-<target>/ (see
// test/vscode/runner/common.mjs cacheRoot); --fresh uses a throwaway profile instead. The profile
// opens a folder's README by itself (workbench.startupEditor: readme).
//
// Why a new folder each time rather than the same one refreshed: the web workbench keeps what was
// open per folder in the browser (IndexedDB, keyed by the folder's URI), so the same folder would
// reopen the last session's editors instead of the README. A new folder is a new workspace.
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import { REPO_ROOT, cacheRoot, isPortFree, freePort, log, runCommand } from '../test/vscode/runner/common.mjs';
import { ensureDependencies } from './bootstrap.mjs';
import { linkExtension } from './linkExtension.mjs';
import { ensureVSCode } from '../test/vscode/runner/install.mjs';
import { startServer, workbenchUrl } from '../test/vscode/runner/run.mjs';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    port: { type: 'string', default: '8080' },
    folder: { type: 'string' },
    'keep-sample': { type: 'boolean', default: false },
    extension: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  process.stdout.write('usage: npm start -- [--target latest|min] [--port 8080] [--folder <dir>] [--keep-sample] [--extension <dir>] [--skip-build] [--fresh] [--verbose]\n'
    + '  --keep-sample  reopen the sample workspace as you left it last time (default: a new copy, as shipped)\n'
    + '  --fresh        a new VS Code profile (settings, state) for this run\n');
  process.exit(0);
}

/**
 * Installs the npm dependencies on a fresh clone, then builds what the packaged extension ships
 * (build.mjs --shipped: the extension, the NES agent and the chat page), nothing less.
 */
async function build() {
  await ensureDependencies();
  log('building the extension, the NES agent and the chat page');
  const { code, signal } = await runCommand(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--shipped'], { cwd: REPO_ROOT, echo: true });
  if (code !== 0) throw new Error(`the build failed (exit ${code ?? signal})`);
}

// Copies of the sample kept (the newest is the one --keep-sample reopens); older ones are removed.
const SAMPLE_COPIES_KEPT = 3;

/**
 * A copy of samples/try-agent-link in the cache, so trying things out never changes the
 * repository: <cache>/try-agent-link/<start time>/try-agent-link, new on every start unless
 * `keep` (then the newest copy, if any).
 * @param {boolean} keep
 */
async function sampleWorkspace(keep) {
  const root = path.join(cacheRoot(), 'try-agent-link');
  await fs.mkdir(root, { recursive: true });
  const isCopy = (/** @type {string} */ name) => /^\d{8}-\d{9}$/.test(name) && existsSync(path.join(root, name, 'try-agent-link'));
  const copies = (await fs.readdir(root)).filter(isCopy).sort();
  if (keep && copies.length > 0) {
    return path.join(root, copies[copies.length - 1], 'try-agent-link');
  }
  if (keep) log('no earlier copy of the sample to keep: starting from the sample as shipped');
  const stamp = new Date().toISOString().replace(/[-:TZ.]/g, '').replace(/^(\d{8})/, '$1-');
  const target = path.join(root, stamp, 'try-agent-link');
  await fs.cp(path.join(REPO_ROOT, 'samples', 'try-agent-link'), target, { recursive: true });
  // Older copies go, and whatever else is there (the single copy earlier versions kept).
  const keepNames = new Set([...copies.slice(-(SAMPLE_COPIES_KEPT - 1)), stamp]);
  for (const name of await fs.readdir(root)) {
    if (!keepNames.has(name)) await fs.rm(path.join(root, name), { recursive: true, force: true });
  }
  return target;
}

/**
 * Makes the start profile open a folder's README by itself. The profile's settings.json is
 * written once and then left to you (settings changed in the UI survive restarts), so a profile
 * from before this setting existed gets it here; one you edited by hand into JSON with comments is
 * left alone.
 * @param {string} dataDir the profile (startServer's dataDir)
 */
async function openReadmeOnStart(dataDir) {
  const file = path.join(dataDir, 'user-data', 'User', 'settings.json');
  if (!existsSync(file)) return; // startServer writes it with the setting
  let settings;
  try {
    settings = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    log(`${file} is not plain JSON: set "workbench.startupEditor": "readme" there to have the sample's README open on start`);
    return;
  }
  const current = settings['workbench.startupEditor'];
  if (current === undefined || current === 'none') {
    settings['workbench.startupEditor'] = 'readme';
    await fs.writeFile(file, `${JSON.stringify(settings, null, 2)}\n`);
  }
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
  if (!sample && values['keep-sample']) throw new Error('--keep-sample is for the sample workspace, not with --folder');
  const folder = sample ? await sampleWorkspace(values['keep-sample']) : path.resolve(values.folder);
  if (!existsSync(folder)) throw new Error(`--folder ${folder} does not exist`);

  // always a private temp dir: the server's TMPDIR (its vscode-ipc/vscode-git sockets), plus the
  // whole profile with --fresh
  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-link-start-'));
  const dataDir = values.fresh ? path.join(tempDir, 'profile') : path.join(cacheRoot(), `start-profile-${target}`);
  await openReadmeOnStart(dataDir);
  const extension = path.resolve(values.extension ?? REPO_ROOT);
  await linkExtension(path.join(dataDir, 'extensions'), extension);
  const server = await startServer({
    target,
    dataDir,
    tmpDir: path.join(tempDir, 'tmp'),
    port,
    // Your own folder: behave like a normal VS Code, trust prompts and restricted mode apply.
    // The sample workspace is made for trying Agent Link, so it is trusted and the agents start.
    workspaceTrust: !sample,
    keepExistingSettings: true, // settings changed in the UI survive restarts
    // An agent that works without installing anything (the example agent of the ACP SDK) as the
    // selected agent; next edit suggestions come from Agent Link NES (built in), the default NES agent.
    userSettings: {
      // The sample's README says what to do: it opens by itself (no editors to restore in a new copy),
      // with the whole width (the secondary side bar would be empty).
      'workbench.startupEditor': 'readme',
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'agentLink.agents': {
        'ACP SDK Example Agent': { command: process.execPath, args: [path.join(REPO_ROOT, 'node_modules', 'acp-sdk-1-9', 'dist', 'examples', 'agent.js')] },
      },
      'agentLink.defaultAgent': 'ACP SDK Example Agent',
      'agentLink.nes.agent': 'Agent Link NES (built in)',
    },
    echo: values.verbose,
    // A person's VS Code: notification toasts and dialogs as usual (see linkExtension.mjs).
    smokeTestDriver: false,
  });

  const url = workbenchUrl(server.port, folder, []);
  process.stdout.write(`\nVS Code ${server.install.vscodeVersion} (code-server ${server.install.version}) is running with the extension from ${extension}\n`
    + `Open this URL in a browser (on another machine, forward port ${server.port} first, e.g. ssh -L ${server.port}:127.0.0.1:${server.port}):\n\n`
    + `  ${url}\n\n${sample ? `It opens ${folder}, a workspace for trying Agent Link: its README.md, open on start, says what to type to see a next edit suggestion.\n`
      + `${values['keep-sample'] ? 'This is the copy you left last time.' : 'This is a new copy of the sample as shipped; `npm start -- --keep-sample` reopens it with your changes next time.'}\n` : ''}Press Ctrl+C to stop.\n`);

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
