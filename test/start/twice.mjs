#!/usr/bin/env node
// `npm start` as a person meets it on a fresh clone, twice: copies the repository as a clone has it
// (no dist/, no out/: nothing an earlier build left), runs its scripts/start.mjs, opens the URL it
// prints in Chromium (the same browser profile and port each time, as a person's browser would be),
// and checks that the sample workspace opens as shipped with its README showing. In between, it
// edits a file of the sample and saves it, the way the first try leaves it, then chats as the
// sample's README says: Agent Link: New Chat from the palette, its prompt typed, Enter, the example
// agent's answer and its permission prompt, allowed with Enter. The second start, after its own
// edit, takes the chat page's script away and then breaks it: the chat view must say what is wrong
// and how to build it. A third start with --keep-sample must reopen that copy with the change.
//
//   node test/start/twice.mjs [--target latest|min] [--shots <dir>]
//
// Its own cache (AGENT_LINK_TEST_CACHE) with links to the VS Code installs of the usual one, so
// your start profile and sample copies are left alone. Screenshots go to --shots (default: a
// temporary folder, printed). Exit code 0 when every check passes.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import { ensureDependencies } from '../../scripts/bootstrap.mjs';
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
const clone = path.join(scratch, 'agent-link');
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
  const child = spawn(process.execPath, [path.join(clone, 'scripts', 'start.mjs'), '--port', String(port), '--target', target, ...args], {
    cwd: clone,
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
  const chosen = async () => (await page.locator('.quick-input-widget .monaco-list-row.focused .label-name').allTextContents()).some((t) => t.trim() === name);
  await until(async () => (await rows.allTextContents()).length === 1, `only ${name} left in the picker`, 15_000);
  // The picker's items are set again when the ACP Registry's list has loaded (or failed to), which
  // can leave no row highlighted, before Enter or as it is pressed (the picker then stays open). As a
  // person would: Down until the one row left is highlighted, then Enter, and again a second later
  // while the picker is still open.
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: `${name} is not installed` });
  const picker = page.locator('.quick-input-widget');
  let keyAt = 0;
  let shown = true;
  await until(async () => {
    if (await toast.first().isVisible()) return true;
    if ((await picker.isVisible()) && Date.now() - keyAt >= 1_000) {
      await page.keyboard.press((await chosen()) ? 'Enter' : 'ArrowDown');
      keyAt = Date.now();
    }
    return false;
  }, `${name}'s error as a toast`, 35_000).catch(() => (shown = false));
  await page.screenshot({ path: path.join(shots, '3b-missing-agent.png') });
  if (!shown) {
    const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    const rowsLeft = (await picker.isVisible()) ? await rows.allInnerTexts() : [];
    log(`no toast for ${name}: the picker ${rowsLeft.length > 0 ? `still open with ${JSON.stringify(rowsLeft)}` : 'closed'}; toasts on screen: ${JSON.stringify(toasts)}`);
  }
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

/**
 * Copies the repository into `into` as a clone has it: the files git tracks, with this working
 * tree's changes and new files, and nothing it ignores (no dist/, out/ or node_modules/), so no
 * earlier build can stand in for what `npm start` builds. Times are kept (bootstrap.mjs compares
 * package-lock.json's with node_modules'); node_modules is linked, not installed again.
 * @param {string} into
 */
async function cloneRepository(into) {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  for (const relative of new Set(listed.split('\0').filter(Boolean))) {
    const from = path.join(REPO_ROOT, relative);
    if (!existsSync(from)) continue; // deleted in the working tree
    await fs.mkdir(path.dirname(path.join(into, relative)), { recursive: true });
    await fs.cp(from, path.join(into, relative), { preserveTimestamps: true, verbatimSymlinks: true });
  }
  await fs.symlink(path.join(REPO_ROOT, 'node_modules'), path.join(into, 'node_modules'), 'dir');
}

/** Runs a command as a person does: F1, its title typed, Enter once it is the chosen row. */
async function runFromPalette(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ title) {
  await page.keyboard.press('F1');
  // Keys typed before the palette's input has the keyboard would go elsewhere.
  await until(() => page.locator('.quick-input-widget input:focus').isVisible(), 'the command palette holding the keyboard', 15_000);
  await page.keyboard.type(title, { delay: 20 });
  // Enter runs the focused row: while the palette still filters, that may be another command.
  await until(async () => (await page.locator('.quick-input-widget .monaco-list-row.focused').allTextContents()).join(' ').includes(title.replace(/^.*?: /, '')), `${title} chosen in the palette`, 15_000);
  await page.keyboard.press('Enter');
}

/**
 * What the chat view's page holds: for each frame of the workbench with a chat page (or the page
 * shown in its place), the text of the elements matching `selector` as shown (innerText: nothing
 * hidden). Frames come and go as webviews load: one that goes while asked is skipped.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
async function inChat(page, selector) {
  /** @type {string[]} */
  const texts = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    texts.push(...(await frame.evaluate((sel) => (document.getElementById('app') || document.getElementById('page-problem')
      ? [...document.querySelectorAll(sel)].map((e) => (e instanceof HTMLElement ? e.innerText : e.textContent ?? ''))
      : []), selector).catch(() => [])));
  }
  return texts;
}

/** The prompt the sample's README suggests for the chat (`Type anything, for example \`…\``). */
function readmePrompt() {
  const prompt = /for example `([^`]+)`, and press \*\*Enter\*\*/.exec(shipped('README.md'))?.[1];
  if (!prompt) throw new Error('the sample README names no prompt to type (for example `…`, and press **Enter**)');
  return prompt;
}

/**
 * The sample README's chat, with real keys: New Chat from the palette, its prompt typed and sent
 * with Enter, the example agent's answer and permission prompt, allowed with Enter.
 * @param {import('playwright-core').Page} page
 */
async function chatAsTheReadmeSays(page) {
  const prompt = readmePrompt();
  await runFromPalette(page, 'Agent Link: New Chat');
  await until(async () => (await inChat(page, 'textarea.prompt-input:focus')).length > 0, 'the chat input holding the keyboard', 60_000);
  await page.keyboard.type(prompt, { delay: 20 });
  await page.keyboard.press('Enter');
  await until(async () => (await inChat(page, '.entry-user')).some((t) => t.includes(prompt)), 'the prompt in the chat', 30_000);
  await until(async () => (await inChat(page, '.entry-agent')).join(' ').includes("I'll help you with that"), "the example agent's answer", 60_000);
  await until(async () => (await inChat(page, '.permission.pending .permission-option')).length === 2, 'its permission prompt', 60_000);
  await page.screenshot({ path: path.join(shots, '3-first-start-chat.png') });
  const options = await inChat(page, '.permission.pending .permission-option');
  check(options.some((t) => t.includes('Allow')), `first start: the chat shows the example agent's answer and asks permission (${options.join(', ')})`);
  // The prompt ignores keys for its first half second (a stray Enter must not allow); then Enter allows.
  await until(async () => (await inChat(page, '.permission.pending .permission-option:focus')).length > 0, 'the focus on Allow', 15_000);
  await new Promise((r) => setTimeout(r, 800));
  await page.keyboard.press('Enter');
  let answered = true;
  await until(async () => (await inChat(page, '.entry-agent')).join(' ').includes('successfully updated'), 'the turn allowed to its end', 30_000).catch(() => (answered = false));
  check(answered, 'first start: Enter allows the change and the turn ends');
}

/**
 * With the chat page's script missing, then broken, the chat view says so and how to build it.
 * @param {import('playwright-core').Page} page
 */
async function chatPageProblems(page) {
  const script = path.join(clone, 'dist', 'webview', 'chat.js');
  await fs.rename(script, `${script}.away`);
  await page.keyboard.press('Control+Alt+J'); // Focus Chat: the chat view, shown
  // The view is loaded again while it waits for a page that does not start (chatPages.ts's
  // watch), so the text seen is kept as it was when it matched.
  let seen = '';
  const says = (/** @type {RegExp} */ pattern) => async () => pattern.test((seen = (await inChat(page, '#page-problem')).join('\n')));
  let said = true;
  await until(says(/dist\/webview\/chat\.js is missing[\s\S]*npm run build/), 'the chat view saying its script is missing', 60_000).catch(() => (said = false));
  await page.screenshot({ path: path.join(shots, '5-chat-not-built.png') });
  check(said, `without dist/webview/chat.js: the chat view names it and npm run build (it says: ${JSON.stringify(seen)})`);
  // A script that stops with an error: the page's own notice shows after a moment. Hiding the view
  // and showing it again (Ctrl+B twice) loads it again, its files checked again.
  await fs.writeFile(script, "throw new Error('stopped on purpose by the start tier');\n");
  await page.keyboard.press('Control+B');
  await until(async () => !(await page.locator('.part.sidebar').isVisible()), 'the side bar hidden', 15_000);
  await page.keyboard.press('Control+B');
  said = true;
  // (While the page does not start, the chat's watch loads it again twice, 5 s apart, and each load
  // hides the notice for its first 3 s: on a loaded machine it may show only after the last.)
  await until(says(/did not start[\s\S]*dist\/webview\/chat\.js[\s\S]*npm run build/), 'the chat view saying its script did not start', 90_000).catch(() => (said = false));
  await page.screenshot({ path: path.join(shots, '6-chat-not-started.png') });
  check(said, `a chat script that stops with an error: the chat view says it did not start and how to build it (it says: ${JSON.stringify(seen)})`);
  await fs.rm(script, { force: true });
  await fs.rename(`${script}.away`, script);
}

let firstFolder = '';
let secondFolder = '';
const EDIT_1 = ' // changed in the first try';
const EDIT_2 = ' // changed in the second try';
try {
  log(`VS Code ${target}, port ${port}, screenshots in ${shots}`);
  await ensureDependencies(); // the copy links this repository's node_modules
  await cloneRepository(clone);
  check(!existsSync(path.join(clone, 'dist')) && !existsSync(path.join(clone, 'out')), `a copy of the repository as cloned, without dist/ or out/ (${clone})`);

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
    await chatAsTheReadmeSays(page);
  });

  await start(['--skip-build'], async (page, folder) => {
    secondFolder = folder;
    check(folder !== firstFolder, 'second start: a new copy of the sample');
    check(readFileSync(path.join(folder, 'src', 'cart.ts'), 'utf8') === shipped('src/cart.ts'), 'second start: src/cart.ts as shipped (the first try\'s edit is not in it)');
    let readme = true;
    await until(() => readmeShowing(page), 'the README on the second start').catch(() => (readme = false));
    await page.screenshot({ path: path.join(shots, '4-second-start.png') });
    check(readme, 'second start: the README showing');
    const tabs = await page.locator('.tabs-container [role="tab"]').allTextContents();
    check(!tabs.some((t) => t.includes('cart.ts')), `second start: the first try's editors are not restored (tabs: ${tabs.join(', ')})`);
    await missingAgentToast(page);
    await openFile(page, 'src/settings.js');
    await appendAndSave(page, 2, EDIT_2);
    await until(() => readFileSync(path.join(folder, 'src', 'settings.js'), 'utf8').includes(EDIT_2), 'the edit saved', 15_000);
    // The extension host is up by now (the README's preview is drawn by an extension): the chat
    // view answers at once.
    await chatPageProblems(page);
  });

  await start(['--skip-build', '--keep-sample'], async (page, folder) => {
    check(folder === secondFolder, '--keep-sample: the copy of the second start');
    check(readFileSync(path.join(folder, 'src', 'settings.js'), 'utf8').includes(EDIT_2), '--keep-sample: with its change');
    // The editor draws spaces as no-break spaces.
    const lines = async () => (await page.locator('.editor-instance .view-lines').allTextContents().catch(() => [])).join('\n').replace(/\u00a0/g, ' ');
    const shown = async () => (await lines()).includes(EDIT_2.trim());
    let restored = true;
    await until(shown, 'settings.js with the change, restored', 30_000).catch(() => (restored = false));
    await page.screenshot({ path: path.join(shots, '7-keep-sample.png') });
    check(restored, '--keep-sample: the editor left open shows the change');
  });
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
  log(`FAIL ${failures.at(-1)}`);
} finally {
  await fs.rm(cache, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => {});
  await fs.rm(browserProfile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => {});
  await fs.rm(clone, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => {});
  // The browser's own folders go too; with --shots elsewhere nothing of the scratch folder is kept.
  for (const name of ['browser-xdg-config', 'browser-xdg-cache']) await fs.rm(path.join(scratch, name), { recursive: true, force: true }).catch(() => {});
  if (values.shots) await fs.rm(scratch, { recursive: true, force: true }).catch(() => {});
}

log(failures.length ? `${failures.length} check(s) failed; screenshots in ${shots}` : `all checks passed; screenshots in ${shots}`);
if (!values.shots && failures.length === 0 && existsSync(scratch)) log(`(kept ${scratch} for the screenshots)`);
process.exit(failures.length ? 1 : 0);
