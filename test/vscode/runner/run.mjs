#!/usr/bin/env node
// Runs extension tests (a CommonJS module exporting `run(): Promise<void>`) inside a real VS Code:
// the VS Code server bundled with code-server, plus its web workbench in headless Debian chromium
// driven by playwright-core. The extension host is the server-side Node extension host.
//
//   node test/vscode/runner/run.mjs --target min --tests <path> [--workspace <dir|.code-workspace>]
//        [--profile <dir>] [--trust] [--extension <dir>] [--timeout <ms>]
//
// Exit code = the test run's exit code (0 pass, 1 failures); 2 = the harness itself failed
// (install, server start, browser, timeout).
import { spawn } from 'node:child_process';
import { existsSync, statSync, statfsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, parseArgs } from 'node:util';

import { REPO_ROOT, RUNNER_DIR, endGroupLater, freePort, isPortFree, killGroup, log, signalGroup, stampedEcho, tail, waitForHttp } from './common.mjs';
import { startBridge } from './bridge.mjs';
import { ensureVSCode } from './install.mjs';

/**
 * @typedef {object} RunOptions
 * @property {'min' | 'latest'} target which VS Code build (min = 1.100.3, latest = 1.139.1)
 * @property {string} extensionTestsPath absolute path of a CommonJS module exporting `run(): Promise<void>` (with or without `.js`)
 * @property {string} [extensionDevelopmentPath] absolute folder of the extension under test (default: repo root)
 * @property {string} [workspace] absolute folder or `.code-workspace` file to open (default: none, empty window)
 * @property {Record<string, unknown>} [userSettings] merged over the default user settings
 * @property {Record<string, string>} [env] extra environment for the server (the extension host inherits it)
 * @property {string} [profileDir] keep server user data + browser profile here so a later run sees the same storage
 * @property {boolean} [workspaceTrust] default false (`--disable-workspace-trust`); true = trust enabled, folder untrusted
 * @property {boolean} [asShipped] VS Code's settings as it ships, without QUIET_EDITOR and QUIET_WORKBENCH (benchmarks: they
 *   measure what users meet); also for every window when AGENT_LINK_SCREENSHOTS=1 (the README's screenshots)
 * @property {number} [timeoutMs] default 10 minutes
 */

/**
 * Editor decorations the suites never look at, drawn again at every edit: a tenth of nes-sync's
 * workbench page (its 2 400 edits: 63.7 against 57.0 s of processor time alone on 1.139). Test runs
 * only (`npm start` shows VS Code as it ships, and so do benchmarks), and not when the run takes the README's screenshots.
 */
const QUIET_EDITOR = {
  'editor.occurrencesHighlight': 'off',
  'editor.selectionHighlight': false,
  'editor.matchBrackets': 'never',
  'editor.renderLineHighlight': 'none',
  'editor.guides.indentation': false,
  'editor.guides.bracketPairs': false,
  'editor.bracketPairColorization.enabled': false,
  'editor.stickyScroll.enabled': false,
  'editor.minimap.enabled': false,
  'editor.unicodeHighlight.ambiguousCharacters': false,
  'editor.unicodeHighlight.invisibleCharacters': false,
  'editor.unicodeHighlight.nonBasicASCII': false,
  'editor.colorDecorators': false,
  'breadcrumbs.enabled': false,
};

/**
 * Built-in work no suite reads, each a few seconds of processor time per window: the TypeScript
 * server's type checking (the syntax server alone answers for the open files; a suite that asks the
 * language for symbols, definitions, diagnostics or renames turns it back on with
 * `typescript.tsserver.useSyntaxServer: 'auto'`), type acquisition (these machines are offline),
 * git's repository scan (Agent Link runs git itself) and npm's and the task system's script
 * detection. chat-turns on 1.139, back to back: 42-47 against 54-56 s of processor time. Test runs
 * only, as QUIET_EDITOR (not benchmarks, not the README's screenshots, not `npm start`).
 */
const QUIET_WORKBENCH = {
  'typescript.tsserver.useSyntaxServer': 'always',
  'typescript.disableAutomaticTypeAcquisition': true,
  'git.enabled': false,
  'npm.autoDetect': 'off',
  'task.autoDetect': 'off',
};

/** Default user settings of the test profile. */
export const DEFAULT_USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  // No animation the tests do not look at: a steady cursor and no workbench motion keep the
  // page from drawing frames for nothing (software rendering here), and screenshots steady.
  'editor.cursorBlinking': 'solid',
  'workbench.reduceMotion': 'on',
};

/** Chromium flags that work headless on these machines (root, no GPU, no internet). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Shared memory in files under /tmp (on disk here) only where /dev/shm is too small for it (a
  // container's 64 MB); a roomy /dev/shm keeps it in memory. chat-panel on 1.139, alternating runs,
  // the whole machine's processor time: 109 to 131 s (mean 121) against 118 to 135 s (mean 124).
  ...(devShmBytes() >= 1024 ** 3 ? [] : ['--disable-dev-shm-usage']),
];

/** The room left in /dev/shm, 0 where there is none. */
function devShmBytes() {
  try {
    const stats = statfsSync('/dev/shm');
    return stats.bavail * stats.bsize;
  } catch {
    return 0;
  }
}

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Workbench messages that are expected on an offline machine (marketplace/telemetry lookups,
 * vsda and service-worker 404s, iframe sandbox warnings); hidden on failure unless verbose.
 */
const HARMLESS_NOISE = new RegExp([
  'ENOTFOUND', 'ERR_NAME_NOT_RESOLVED', 'ERR_INTERNET_DISCONNECTED', 'status of 404', 'manifest\\.json',
  'service ?worker', 'same-origin iframe', 'allow-scripts and allow-same-origin', 'Overwriting extension <<', 'vsda',
  "authentication provider 'github'", '\\[DefaultAccount\\]', '^\\[workbench error\\] Canceled: Canceled',
].join('|'), 'i');

/**
 * What a webview's host page says of its service worker (at log level), which its content waits
 * for: kept and shown on failure despite HARMLESS_NOISE, so a webview that stays blank says why.
 */
const WEBVIEW_HOST_WORKER = /controllerchange|unexpected service worker|Webview fatal error/i;

/** Teardowns of runs in progress, so a Ctrl+C in the CLI still cleans up. */
const activeTeardowns = new Set();

/**
 * Environment for the server: the caller's, minus VS Code variables of an outer VS Code
 * (e.g. when started from a VS Code terminal), plus our own.
 * @param {Record<string, string>} extra
 */
export function serverEnv(extra) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * `vscode-remote://127.0.0.1:PORT/abs/path`, the form the web workbench wants for server-side paths.
 * @param {number} port
 * @param {string} absPath
 */
export function remoteUri(port, absPath) {
  const encoded = absPath.split(path.sep).map((s) => encodeURIComponent(s)).join('/');
  return `vscode-remote://127.0.0.1:${port}${encoded.startsWith('/') ? '' : '/'}${encoded}`;
}

/**
 * Workbench URL that opens `workspace` (folder or .code-workspace) with the given payload.
 * @param {number} port
 * @param {string | undefined} workspace
 * @param {[string, string][]} payload
 */
export function workbenchUrl(port, workspace, payload) {
  /** @type {string[]} */
  const params = [];
  if (workspace) {
    const isWorkspaceFile = workspace.endsWith('.code-workspace') && existsSync(workspace) && statSync(workspace).isFile();
    // slashes left readable; the workbench decodes the value
    params.push(`${isWorkspaceFile ? 'workspace' : 'folder'}=${encodeURIComponent(workspace).replace(/%2F/g, '/')}`);
  }
  if (payload.length) params.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `http://127.0.0.1:${port}/${params.length ? `?${params.join('&')}` : ''}`;
}

/**
 * Starts the VS Code server of `target` in its own process group and waits until it answers HTTP.
 * Used by runTests and by scripts/start.mjs.
 * @param {{ target: 'min' | 'latest', dataDir: string, port?: number, workspaceTrust?: boolean,
 *   userSettings?: Record<string, unknown>, keepExistingSettings?: boolean, env?: Record<string, string>,
 *   echo?: boolean, tmpDir?: string, smokeTestDriver?: boolean }} options
 *   dataDir receives user-data/, extensions/, server-data/ and xdg-config/, xdg-data/.
 *   keepExistingSettings: write settings.json only if absent (default: overwrite on each start).
 *   smokeTestDriver: start the server with --enable-smoke-test-driver (default true). The tests need it:
 *   without it VS Code 1.139 ignores the workbench URL's payload (extensionDevelopmentPath and
 *   extensionTestsPath). It also changes what a person sees: 1.139 shows no notification toasts
 *   with it (only the notification center has them) and refuses modal dialogs, so scripts/start.mjs
 *   starts without it and installs the extension into the extensions folder instead.
 */
export async function startServer(options) {
  // A port found free may be taken before the server binds it (the other target's server, an
  // outgoing connection): a server that dies with EADDRINUSE on a port it was not given is
  // started again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options, options.port ?? await freePort());
    } catch (error) {
      const inUse = error instanceof Error && /EADDRINUSE|address already in use/i.test(error.message);
      if (!inUse || options.port !== undefined || attempt >= 3) throw error;
      log(`${options.target}: the port was taken before the server could bind it; trying another (attempt ${attempt + 1})`);
    }
  }
}

/**
 * @param {Parameters<typeof startServer>[0]} options
 * @param {number} port
 */
async function startServerOnce(options, port) {
  const install = await ensureVSCode(options.target);
  const dirs = {
    userData: path.join(options.dataDir, 'user-data'),
    extensions: path.join(options.dataDir, 'extensions'),
    serverData: path.join(options.dataDir, 'server-data'),
    xdgConfig: path.join(options.dataDir, 'xdg-config'),
    xdgData: path.join(options.dataDir, 'xdg-data'),
  };
  for (const dir of Object.values(dirs)) await fs.mkdir(dir, { recursive: true });
  if (options.tmpDir) await fs.mkdir(options.tmpDir, { recursive: true });

  // The web workbench of code-server's VS Code reads user settings from the *server's*
  // <user-data-dir>/User/settings.json (verified on 1.100.3 and 1.139.1).
  const settings = {
    ...DEFAULT_USER_SETTINGS,
    'security.workspace.trust.enabled': Boolean(options.workspaceTrust),
    ...options.userSettings,
  };
  const settingsFile = path.join(dirs.userData, 'User', 'settings.json');
  if (options.keepExistingSettings !== true || !existsSync(settingsFile)) {
    await fs.mkdir(path.dirname(settingsFile), { recursive: true });
    await fs.writeFile(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
  }

  const args = [
    install.serverMain,
    '--host', '127.0.0.1',
    '--port', String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    // VS Code >= 1.1xx ignores the extensionTestsPath payload without it; code-server's CLI rejects it,
    // hence server-main.js directly for both targets.
    ...(options.smokeTestDriver === false ? [] : ['--enable-smoke-test-driver']),
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    '--server-data-dir', dirs.serverData,
    '--telemetry-level', 'off',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
  ];
  const env = serverEnv({
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    VSCODE_AGENT_FOLDER: dirs.serverData,
    // sockets (vscode-ipc-*, vscode-git-*) and temp files of the server and extension host
    ...(options.tmpDir ? { TMPDIR: options.tmpDir } : {}),
    ...options.env,
  });
  // `setsid` gives the server its own session and process group (child.pid is its id: a child
  // spawned by Node is never a group leader, so setsid does not fork). Extension hosts, pty hosts
  // and file watchers live in that group and die with it.
  const child = spawn('setsid', [install.nodeBinary, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = /** @type {number} */ (child.pid);
  /** @type {string[]} */
  const output = [];
  let exited = false;
  /** @type {Promise<number | null>} resolves with the server's exit code when it exits */
  const exitPromise = new Promise((resolve) => child.on('exit', (code) => { exited = true; resolve(code); }));
  /** @param {ReturnType<typeof stampedEcho> | undefined} echo */
  const collect = (echo) => (/** @type {Buffer} */ chunk) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 2000) output.splice(0, output.length - 2000);
    echo?.(chunk);
  };
  child.stdout.on('data', collect(options.echo ? stampedEcho() : undefined));
  child.stderr.on('data', collect(options.echo ? stampedEcho() : undefined));
  // Last resort if this process dies without tearing down.
  const onExit = () => signalGroup(pgid, 'SIGKILL');
  process.on('exit', onExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await killGroup(pgid);
    process.off('exit', onExit);
  };
  /** Ends the server without waiting for it, `dirs` removed once it is gone (endGroupLater). @param {string[]} dirs */
  const endLater = (dirs) => {
    if (stopped) return false;
    stopped = true;
    endGroupLater(pgid, dirs);
    process.off('exit', onExit);
    return true;
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, { timeoutMs: 90_000, isAlive: () => !exited });
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- server output ---\n${tail(output.join(''))}`);
  }
  return { install, port, pgid, dirs, stop, endLater, exited: exitPromise, output: () => output.join('') };
}

/** The module VS Code loads as extensionTestsPath; it loads the real one (see host-entry.cjs). */
const HOST_ENTRY = path.join(RUNNER_DIR, 'host-entry.cjs');
/** Prefix host-entry.cjs puts on every extension-host console line (must match). */
const HOST_OUTPUT_MARKER = '\u001e[ext-host]\u001f';

/**
 * The port of a profile directory: fixed per profile, because the web workbench keeps
 * workspaceState/globalState in the browser's IndexedDB, which is per origin
 * (http://127.0.0.1:PORT), and derives the workspace storage id from the folder's
 * vscode-remote://127.0.0.1:PORT/... URI. A new port would mean empty state.
 * @param {string} profileDir
 */
async function profilePort(profileDir) {
  const file = path.join(profileDir, 'port');
  const saved = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
  if (!(Number.isInteger(saved) && saved > 0 && saved < 65536)) {
    const port = await freePort();
    await fs.writeFile(file, `${port}\n`);
    return port;
  }
  for (let i = 0; i < 60; i++) {
    if (await isPortFree(saved)) return saved;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`port ${saved} of profile ${profileDir} is in use (the profile must keep its port so that `
    + 'browser-side storage carries over); is another run using this profile?');
}

/**
 * Runs the extension tests in a real VS Code and resolves with their exit code.
 * @param {RunOptions} options
 * @returns {Promise<number>}
 */
export async function runTests(options) {
  const started = Date.now();
  const target = options.target ?? 'min';
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const verbose = process.env.AGENT_LINK_TEST_VERBOSE === '1';
  const extensionDevelopmentPath = path.resolve(options.extensionDevelopmentPath ?? REPO_ROOT);
  if (!options.extensionTestsPath) throw new Error('runTests: extensionTestsPath is required');
  const extensionTestsPath = path.resolve(options.extensionTestsPath);
  if (!existsSync(extensionTestsPath) && !existsSync(`${extensionTestsPath}.js`)) {
    throw new Error(`runTests: tests module not found: ${options.extensionTestsPath}`);
  }
  const workspace = options.workspace ? path.resolve(options.workspace) : undefined;
  if (workspace && !existsSync(workspace)) throw new Error(`runTests: workspace not found: ${workspace}`);

  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-link-vscode-'));
  const profileDir = options.profileDir ? path.resolve(options.profileDir) : undefined;
  if (profileDir) await fs.mkdir(profileDir, { recursive: true });
  const dataDir = profileDir ? path.join(profileDir, 'server') : path.join(tempDir, 'server');
  const browserProfile = profileDir ? path.join(profileDir, 'browser') : path.join(tempDir, 'browser');

  /** @type {string[]} */
  const pageDiagnostics = [];
  /** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
  let server;
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let context;
  /** @type {import('playwright-core').Page | undefined} */
  let workbenchPage;
  /** @type {Awaited<ReturnType<typeof startBridge>> | undefined} */
  let bridge;
  let tornDown = false;
  const teardown = async () => {
    if (tornDown) return;
    tornDown = true;
    if (profileDir && context) {
      // Leave the page normally so the workbench flushes browser-side storage (IndexedDB) first.
      await context.pages()[0]?.goto('about:blank', { timeout: 5_000 }).catch(() => {});
    }
    await bridge?.close();
    await context?.close().catch(() => {});
    // A run whose state is not kept ends its server in the background (about two seconds of its
    // shutdown the next run need not wait for); a kept profile's server is waited for.
    if (!profileDir && server?.endLater([tempDir])) {
      return;
    }
    await server?.stop();
    // retries: processes of the just-killed group may still be finishing their last writes
    await fs.rm(tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
      .catch((error) => log(`could not remove ${tempDir}: ${error.message}`));
  };
  activeTeardowns.add(teardown);

  let failed = true;
  try {
    log(`${target}: starting VS Code server`);
    // Real key presses and screenshots for the tests in the extension host (bridge.mjs).
    bridge = await startBridge(() => workbenchPage);
    server = await startServer({
      target,
      dataDir,
      port: profileDir ? await profilePort(profileDir) : undefined,
      workspaceTrust: options.workspaceTrust,
      // with trust enabled, keep the folder untrusted without a modal prompt blocking the window
      userSettings: {
        ...(options.asShipped || process.env.AGENT_LINK_SCREENSHOTS === '1' ? {} : { ...QUIET_EDITOR, ...QUIET_WORKBENCH }),
        ...(options.workspaceTrust ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
        ...options.userSettings,
      },
      // Failure screenshots go where the run's own temporary folder (removed at the end) is not.
      env: { ...options.env, AGENT_LINK_EXTENSION_TESTS: extensionTestsPath, AGENT_LINK_TEST_BROWSER: bridge.url, AGENT_LINK_FAILURE_SHOTS: path.join(os.tmpdir(), 'agent-link-failures') },
      tmpDir: path.join(tempDir, 'tmp'),
      echo: verbose,
    });
    const { port } = server;
    log(`${target}: VS Code ${server.install.vscodeVersion} (code-server ${server.install.version}) on http://127.0.0.1:${port}/ after ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(browserProfile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
      // the page's own animations (the chat's included) follow prefers-reduced-motion
      reducedMotion: 'reduce',
      // keeps chromium's crash-report database and caches out of the home folder
      env: { ...process.env, XDG_CONFIG_HOME: path.join(tempDir, 'browser-xdg-config'), XDG_CACHE_HOME: path.join(tempDir, 'browser-xdg-cache') },
      // our own teardown handles signals (Playwright's handlers would exit the process mid-teardown)
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    // Every frame keeps its last moves of the keyboard, read when a test fails (bridge.mjs: focusTrail).
    await context.addInitScript(recordFocusTrail);
    const page = context.pages()[0] ?? await context.newPage();
    workbenchPage = page;

    /** @type {(code: number) => void} */
    let onExit = () => {};
    const exited = new Promise((resolve) => { onExit = resolve; });
    await page.exposeFunction('codeAutomationLog', (/** @type {string} */ type, /** @type {unknown[]} */ args) => {
      // Both the extension host's console (forwarded) and the workbench's own log lines arrive
      // here; host-entry.cjs marks the former, already formatted like Node's console.
      const list = Array.isArray(args) ? args : [args];
      if (list.length === 1 && typeof list[0] === 'string' && list[0].startsWith(HOST_OUTPUT_MARKER)) {
        process.stdout.write(`${list[0].slice(HOST_OUTPUT_MARKER.length)}\n`);
      } else if (verbose || type === 'error' || type === 'warn') {
        pageDiagnostics.push(`[workbench ${type}] ${format(...list)}`);
      }
    });
    await page.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => {
      onExit(Number(code));
    });
    page.on('pageerror', (error) => pageDiagnostics.push(`[page error] ${error.stack ?? error.message}`));
    page.on('console', (message) => {
      const text = message.text();
      // '%c' lines are VS Code's styled copies of log lines that codeAutomationLog already delivered
      if (text.startsWith('%c') || text.includes(HOST_OUTPUT_MARKER)) return;
      if (verbose || message.type() === 'error' || message.type() === 'warning' || WEBVIEW_HOST_WORKER.test(text)) {
        pageDiagnostics.push(`[console ${message.type()}] ${text}`);
      }
    });

    const url = workbenchUrl(port, workspace, [
      ['extensionDevelopmentPath', remoteUri(port, extensionDevelopmentPath)],
      ['extensionTestsPath', remoteUri(port, HOST_ENTRY)],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ]);
    if (verbose) log(`opening ${url}`);
    // AGENT_LINK_TEST_CPU_PROFILE=<folder>: the workbench page's JavaScript profile of the whole
    // window, one .cpuprofile per window (Chrome's DevTools open it): where the page's time goes.
    const profiler = process.env.AGENT_LINK_TEST_CPU_PROFILE ? await context.newCDPSession(page) : undefined;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.start');
    }
    await page.goto(url, { waitUntil: 'domcontentloaded' });

    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const timedOut = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(
        `${target}: extension tests did not finish within ${timeoutMs} ms (VS Code never called codeAutomationExit; `
        + 'is extensionTestsPath a CommonJS module exporting run() that settles?)')), timeoutMs);
    });
    try {
      const code = /** @type {number} */ (await Promise.race([exited, timedOut]));
      if (profiler) {
        const { profile } = await profiler.send('Profiler.stop');
        const folder = path.resolve(process.env.AGENT_LINK_TEST_CPU_PROFILE);
        await fs.mkdir(folder, { recursive: true });
        const file = path.join(folder, `${target}-${path.basename(tempDir)}.cpuprofile`);
        await fs.writeFile(file, JSON.stringify(profile));
        log(`${target}: the workbench page's profile: ${file}`);
      }
      failed = code !== 0;
      log(`${target}: tests exited with code ${code} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return code;
    } finally {
      clearTimeout(timer);
    }
  } finally {
    if (failed || verbose) {
      const shown = verbose ? pageDiagnostics : pageDiagnostics.filter((line) => !HARMLESS_NOISE.test(line) || WEBVIEW_HOST_WORKER.test(line));
      const hidden = pageDiagnostics.length - shown.length;
      if (shown.length || hidden) {
        process.stderr.write(`--- workbench diagnostics (${shown.length} shown${hidden ? `, ${hidden} known offline noise hidden` : ''}) ---\n`);
        if (shown.length) process.stderr.write(`${shown.slice(-100).join('\n')}\n`);
      }
    }
    if ((failed || verbose) && server) {
      process.stderr.write(`--- server output (tail) ---\n${tail(server.output(), 40)}\n`);
    }
    await teardown();
    activeTeardowns.delete(teardown);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      target: { type: 'string', default: 'min' },
      tests: { type: 'string' },
      extension: { type: 'string' },
      workspace: { type: 'string' },
      profile: { type: 'string' },
      trust: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || !values.tests) {
    process.stderr.write('usage: node test/vscode/runner/run.mjs --target min|latest --tests <module> '
      + '[--workspace <dir|file.code-workspace>] [--profile <dir>] [--trust] [--extension <dir>] [--timeout <ms>]\n');
    process.exit(values.help ? 0 : 2);
  }
  if (values.target !== 'min' && values.target !== 'latest') throw new Error(`--target must be min or latest, not ${values.target}`);
  let interrupted = false;
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      log(`${signal}: tearing down`);
      Promise.allSettled([...activeTeardowns].map((t) => t())).finally(() => process.exit(130));
    });
  }
  const code = await runTests({
    target: values.target,
    extensionTestsPath: path.resolve(values.tests),
    extensionDevelopmentPath: values.extension ? path.resolve(values.extension) : undefined,
    workspace: values.workspace ? path.resolve(values.workspace) : undefined,
    profileDir: values.profile ? path.resolve(values.profile) : undefined,
    workspaceTrust: values.trust,
    timeoutMs: values.timeout ? Number(values.timeout) : undefined,
  });
  process.exit(code);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(2);
  });
}

/**
 * Runs in every frame as it loads (the workbench, webviews, the chat page): keeps the frame's last
 * 40 keyboard events and focus moves (`window.__agentLinkFocusTrail`), so a failed test can say
 * where the keys it pressed went.
 */
function recordFocusTrail() {
  const trail = [];
  Object.defineProperty(window, '__agentLinkFocusTrail', { value: trail });
  const describe = (el) => {
    if (!(el instanceof Element)) return el === window ? 'window' : el === document ? 'document' : 'none';
    const id = el.id ? `#${el.id}` : '';
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${id}${cls}`;
  };
  const note = (what) => {
    trail.push(`${Math.round(performance.now())} ${what}`);
    if (trail.length > 40) trail.shift();
  };
  let listening = false;
  const listen = () => {
    window.addEventListener('keydown', (e) => note(`keydown ${e.key}${e.shiftKey ? '+shift' : ''}${e.ctrlKey ? '+ctrl' : ''} at ${describe(e.target)}`), true);
    window.addEventListener('focusin', (e) => note(`focus ${describe(e.target)}`), true);
    window.addEventListener('focus', (e) => { if (e.target === window) note('window focus'); }, true);
    window.addEventListener('blur', (e) => { if (e.target === window) note('window blur'); }, true);
    window.addEventListener('agent-link-trail-ping', () => (listening = true));
  };
  listen();
  // A focus the page's own script asks for says where from (the moves no key explains).
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (...args) {
    if (this !== document.activeElement) {
      const from = (new Error().stack ?? '').split('\n').slice(2, 5).map((line) => line.trim().replace(/^at /, '').replace(/\(?\S*\/([^/]+:\d+:\d+)\)?/, '$1')).join(' < ');
      note(`focus() of ${describe(this)} from ${from}`);
    }
    return focus.apply(this, args);
  };
  // A webview's page is written into its frame with document.open(), which drops the window's
  // listeners: a ping no listener heard puts them back.
  setInterval(() => {
    listening = false;
    window.dispatchEvent(new Event('agent-link-trail-ping'));
    if (!listening) {
      note('(listening again: the document was written anew)');
      listen();
    }
  }, 100);
}
