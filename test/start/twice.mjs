#!/usr/bin/env node
// `npm start` as a person meets it, twice: runs scripts/start.mjs, opens the URL it prints in
// Chromium (the same browser profile and port both times, as a person's browser would be), and
// checks that the sample workspace opens as shipped with its README showing. In between, it edits
// a file of the sample and saves it, the way the first try leaves it. A third start with
// --keep-sample must reopen that copy with the change.
//
//   node test/start/twice.mjs [--target latest|min] [--shots <dir>]
//
// Its own cache (AGENT_LINK_TEST_CACHE) with links to the VS Code installs of the usual one, so
// your start profile and sample copies are left alone. Screenshots go to --shots (default: a
// temporary folder, printed). Exit code 0 when every check passes.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import { REPO_ROOT, cacheRoot, freePort, log } from '../vscode/runner/common.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../vscode/runner/run.mjs';

const { values } = parseArgs({ options: { target: { type: 'string', default: 'latest' }, shots: { type: 'string' } } });
const target = values.target === 'min' ? 'min' : 'latest';

const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-link-start-twice-'));
const shots = path.resolve(values.shots ?? path.join(scratch, 'shots'));
await fs.mkdir(shots, { recursive: true });
const cache = path.join(scratch, 'cache');
await fs.mkdir(cache);
for (const name of await fs.readdir(cacheRoot()).catch(() => [])) {
  if (/^(code-server-|node-)/.test(name)) await fs.symlink(path.join(cacheRoot(), name), path.join(cache, name));
}
const browserProfile = path.join(scratch, 'browser');
const port = await freePort();
const shipped = (/** @type {string} */ relative) => readFileSync(path.join(REPO_ROOT, 'samples', 'try-agent-link', relative), 'utf8');

/** @type {string[]} */
const failures = [];
/** @param {boolean} ok @param {string} what */
function check(ok, what) {
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

/** @param {() => Promise<boolean> | boolean} condition @param {string} what @param {number} [timeoutMs] */
async function until(condition, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Runs scripts/start.mjs until `use` is done with the page, then stops it with Ctrl+C (SIGINT).
 * @param {string[]} args
 * @param {(page: import('playwright-core').Page, folder: string) => Promise<void>} use
 */
async function start(args, use) {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs'), '--port', String(port), '--target', target, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, AGENT_LINK_TEST_CACHE: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const { chromium } = await import('playwright-core');
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let context;
  try {
    await until(() => /^ {2}http:\/\/127\.0\.0\.1:\d+\/\?\S+$/m.test(out) || child.exitCode !== null, 'the URL', 300_000);
    const url = out.match(/^ {2}(http:\/\/127\.0\.0\.1:\d+\/\?\S+)$/m)?.[1];
    const folder = out.match(/^It opens (.+), a workspace for trying Agent Link/m)?.[1];
    if (!url || !folder) throw new Error(`start.mjs printed no URL or folder:\n${out}`);
    context = await chromium.launchPersistentContext(browserProfile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
      env: { ...process.env, XDG_CONFIG_HOME: path.join(scratch, 'browser-xdg-config'), XDG_CACHE_HOME: path.join(scratch, 'browser-xdg-cache') },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    try {
      await use(page, folder);
    } catch (error) {
      await page.screenshot({ path: path.join(shots, `failed-${path.basename(path.dirname(folder))}.png`) }).catch(() => {});
      throw error;
    }
    // Leave the page normally so the workbench stores its state in the browser, as a closed tab does.
    await page.goto('about:blank');
  } finally {
    await context?.close().catch(() => {});
    if (child.exitCode === null) child.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    if (child.exitCode === null) {
      log(`start.mjs did not stop; output:\n${out}`);
      child.kill('SIGKILL');
    }
  }
}

/** The active editor tab's text (its title, and its description if any). */
const activeTab = async (/** @type {import('playwright-core').Page} */ page) =>
  (await page.locator('.tabs-container [role="tab"][aria-selected="true"]').first().textContent({ timeout: 1000 }).catch(() => null)) ?? '';

/** Whether the README's rendered preview is the active editor and shows the sample's first heading. */
async function readmeShowing(/** @type {import('playwright-core').Page} */ page) {
  if (!/README\.md/.test(await activeTab(page))) return false;
  for (const frame of page.frames()) {
    const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    if (text.includes('See a next edit suggestion')) {
      // The webview paints a moment after its text is there; only the screenshot needs it.
      await new Promise((r) => setTimeout(r, 1500));
      return true;
    }
  }
  return false;
}

/** Opens a file of the workspace by Quick Open, as a person does. */
async function openFile(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name) {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor();
  await page.keyboard.type(name, { delay: 20 });
  // Enter only once the file is the focused row: the list can show other rows (recently opened) before the search answers.
  await until(async () => ((await page.locator('.quick-input-widget .monaco-list-row.focused').allTextContents()).join(' ')).includes(path.basename(name)), `${name} in Quick Open`, 15_000);
  await page.keyboard.press('Enter');
  await until(async () => (await activeTab(page)).includes(path.basename(name)), `${name} open`, 15_000);
}

/**
 * Picks a preset agent that is not installed, as a person does (F1, Select Agent, its name, Enter),
 * and waits for Agent Link's error as a toast on screen: on VS Code 1.139 a server started with
 * --enable-smoke-test-driver shows no toasts, only the notification center has them.
 */
async function missingAgentToast(/** @type {import('playwright-core').Page} */ page) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input:focus').waitFor();
  await page.keyboard.type('Agent Link: Select Agent', { delay: 20 });
  await until(async () => (await page.locator('.quick-input-widget .monaco-list-row.focused').allTextContents()).join(' ').includes('Select Agent'), 'Select Agent in the palette', 15_000);
  await page.keyboard.press('Enter');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await until(async () => (await rows.allTextContents()).some((t) => t.includes('Not installed')), 'the presets in the agent picker', 30_000);
  const row = rows.filter({ hasText: 'Not installed' }).first();
  const name = ((await row.locator('.label-name').first().textContent()) ?? '').trim();
  await page.keyboard.type(name, { delay: 20 });
  // The picker's items are set again when the ACP Registry's list has loaded (or failed to), which
  // can leave no row active: with the one row left by the filter, Down makes it the active one.
  const chosen = async () => (await page.locator('.quick-input-widget .monaco-list-row.focused .label-name').allTextContents()).some((t) => t.trim() === name);
  await until(async () => (await rows.allTextContents()).length === 1, `only ${name} left in the picker`, 15_000);
  if (!(await chosen())) await page.keyboard.press('ArrowDown');
  await until(chosen, `${name} chosen`, 15_000);
  await page.keyboard.press('Enter');
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: `${name} is not installed` });
  let shown = true;
  await toast.first().waitFor({ state: 'visible', timeout: 20_000 }).catch(() => (shown = false));
  await page.screenshot({ path: path.join(shots, '3b-missing-agent.png') });
  check(shown, `second start: picking ${name}, not installed, shows its error as a notification toast on screen`);
}

/** Types `text` at the end of line `line` of the active editor and saves. */
async function appendAndSave(/** @type {import('playwright-core').Page} */ page, /** @type {number} */ line, /** @type {string} */ text) {
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor();
  await page.keyboard.type(String(line), { delay: 20 });
  await until(async () => (await page.locator('.quick-input-widget .monaco-list-row').allTextContents()).some((t) => t.includes(`line ${line}`)), `go to line ${line}`, 15_000);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.keyboard.press('End');
  await page.keyboard.type(text, { delay: 20 });
  await page.keyboard.press('Control+S');
}

let firstFolder = '';
let secondFolder = '';
const EDIT_1 = ' // changed in the first try';
const EDIT_2 = ' // changed in the second try';
try {
  log(`VS Code ${target}, port ${port}, screenshots in ${shots}`);

  await start([], async (page, folder) => {
    firstFolder = folder;
    await until(() => readmeShowing(page), 'the README on the first start');
    await page.screenshot({ path: path.join(shots, '1-first-start.png') });
    check(readFileSync(path.join(folder, 'src', 'cart.ts'), 'utf8') === shipped('src/cart.ts'), 'first start: src/cart.ts as shipped');
    await openFile(page, 'src/cart.ts');
    await appendAndSave(page, 8, EDIT_1);
    await until(() => readFileSync(path.join(folder, 'src', 'cart.ts'), 'utf8').includes(EDIT_1), 'the edit saved', 15_000);
    await page.screenshot({ path: path.join(shots, '2-first-start-edited.png') });
    check(true, 'first start: src/cart.ts edited and saved, left open');
  });

  await start(['--skip-build'], async (page, folder) => {
    secondFolder = folder;
    check(folder !== firstFolder, 'second start: a new copy of the sample');
    check(readFileSync(path.join(folder, 'src', 'cart.ts'), 'utf8') === shipped('src/cart.ts'), 'second start: src/cart.ts as shipped (the first try\'s edit is not in it)');
    let readme = true;
    await until(() => readmeShowing(page), 'the README on the second start').catch(() => (readme = false));
    await page.screenshot({ path: path.join(shots, '3-second-start.png') });
    check(readme, 'second start: the README showing');
    const tabs = await page.locator('.tabs-container [role="tab"]').allTextContents();
    check(!tabs.some((t) => t.includes('cart.ts')), `second start: the first try's editors are not restored (tabs: ${tabs.join(', ')})`);
    await missingAgentToast(page);
    await openFile(page, 'src/settings.js');
    await appendAndSave(page, 2, EDIT_2);
    await until(() => readFileSync(path.join(folder, 'src', 'settings.js'), 'utf8').includes(EDIT_2), 'the edit saved', 15_000);
  });

  await start(['--skip-build', '--keep-sample'], async (page, folder) => {
    check(folder === secondFolder, '--keep-sample: the copy of the second start');
    check(readFileSync(path.join(folder, 'src', 'settings.js'), 'utf8').includes(EDIT_2), '--keep-sample: with its change');
    // The editor draws spaces as no-break spaces.
    const lines = async () => (await page.locator('.editor-instance .view-lines').allTextContents().catch(() => [])).join('\n').replace(/\u00a0/g, ' ');
    const shown = async () => (await lines()).includes(EDIT_2.trim());
    let restored = true;
    await until(shown, 'settings.js with the change, restored', 30_000).catch(() => (restored = false));
    await page.screenshot({ path: path.join(shots, '4-keep-sample.png') });
    check(restored, '--keep-sample: the editor left open shows the change');
  });
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
  log(`FAIL ${failures.at(-1)}`);
} finally {
  await fs.rm(cache, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => {});
  await fs.rm(browserProfile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => {});
}

log(failures.length ? `${failures.length} check(s) failed; screenshots in ${shots}` : `all checks passed; screenshots in ${shots}`);
if (!values.shots && failures.length === 0 && existsSync(scratch)) log(`(kept ${scratch} for the screenshots)`);
process.exit(failures.length ? 1 : 0);
