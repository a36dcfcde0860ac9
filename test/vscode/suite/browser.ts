// Acting on the workbench page like a person: real key presses and typing through Playwright, and
// looking at what the page renders. Calls the runner's bridge (test/vscode/runner/bridge.mjs),
// whose address the runner passes in AGENT_LINK_TEST_BROWSER.

import * as http from 'node:http';
import { CHAT_PAGE_LOAD, unstartedLoadsMs } from '../../../src/common/chat/pageLoadWatch';
import { bridgeRequests, waitUntil } from './util';

/** One connection kept open to the bridge: tests call it many times a second as they wait. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function post(url: string, body: string): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
			response.on('error', reject);
		});
		request.on('error', reject);
		request.end(body);
	});
}

async function call<T>(body: Record<string, unknown>): Promise<T> {
	const url = process.env.AGENT_LINK_TEST_BROWSER;
	if (!url) {
		throw new Error('AGENT_LINK_TEST_BROWSER is not set: this suite needs the code-server runner (test/vscode/runner/run.mjs)');
	}
	bridgeRequests.count++;
	const response = await post(url, JSON.stringify(body));
	const json = JSON.parse(response.text) as T & { error?: string };
	if (response.status < 200 || response.status >= 300) {
		throw new Error(`browser bridge: ${json.error ?? response.status}`);
	}
	return json;
}

export const hasBrowser = () => process.env.AGENT_LINK_TEST_BROWSER !== undefined;

/** Presses keys one after the other (Playwright names: 'Tab', 'Escape', 'Enter', 'Alt+Backslash', 'a'). */
export async function press(...keys: string[]): Promise<void> {
	await call({ keys });
}

/** Types text key by key. */
export async function type(text: string, delayMs = 30): Promise<void> {
	await call({ type: text, delayMs });
}

/** How many elements match a CSS selector in the page, with their text (a form control's value; only the visible ones with `visible`). */
export async function query(selector: string, options: { visible?: boolean } = {}): Promise<{ count: number; texts: string[] }> {
	const result = await call<{ count: number; texts?: string[] }>({ count: selector, text: true, ...(options.visible ? { visible: true } : {}) });
	return { count: result.count, texts: result.texts ?? [] };
}

/** The text CSS puts before and after the visible elements matching `selector` (an editor decoration's contentText). */
export async function pseudoTexts(selector: string): Promise<string[]> {
	return (await call<{ texts: string[] }>({ pseudoTexts: selector })).texts;
}

/** Presses `key` and resolves with the milliseconds until `selector` is visible in the page. */
export async function pressAndTime(key: string, selector: string): Promise<number> {
	return (await call<{ ms: number }>({ press: key, waitFor: selector })).ms;
}

/**
 * Waits until an element matching `selector` (holding `text`; with `pseudo`, in the text CSS puts
 * before or after it, as a decoration's contentText) is visible; the page's `Date.now()` at the
 * first frame it was.
 */
export async function appearsAt(selector: string, text?: string, timeoutMs = 10_000, options: { pseudo?: boolean } = {}): Promise<number> {
	return (await call<{ at: number }>({ appears: selector, ...(text !== undefined ? { text } : {}), timeoutMs, ...(options.pseudo ? { pseudo: true } : {}) })).at;
}

/** Starts a CPU profile of the workbench page, or stops it and writes it to `file` (a .cpuprofile). */
export async function profile(op: 'start' | 'stop', file?: string): Promise<void> {
	await call({ profile: op, path: file });
}

/** Starts a performance trace of the workbench page and its frames, or stops it and writes it to `file` (a .json). */
export async function trace(op: 'start' | 'stop', file?: string): Promise<void> {
	await call({ trace: op, path: file });
}

/** Clicks the first element matching `selector` (and holding `text`, if given), as a person does with the mouse. */
export async function click(selector: string, text?: string): Promise<void> {
	await call({ click: selector, ...(text !== undefined ? { text } : {}) });
}

/**
 * The addresses of the pages the browser opened (an extension's `openExternal`) since the last call;
 * the first call starts watching (call it once before what may open one).
 */
export async function openedPages(): Promise<string[]> {
	return (await call<{ urls: string[] }>({ opened: true })).urls;
}

/**
 * Whether `opened` (from {@link openedPages}) holds `url`: as it is, or for a loopback address as
 * code-server opens one, through its own port proxy (`/proxy/<port>/<path>`; 4.100 leaves the path out).
 */
export function holdsAddress(opened: readonly string[], url: string): boolean {
	const asked = new URL(url);
	const proxied = [`/proxy/${asked.port}${asked.pathname}${asked.search}`, `/proxy/${asked.port}/`];
	return opened.some((o) => {
		const address = new URL(o);
		return o === url || (asked.port !== '' && proxied.includes(`${address.pathname}${address.search}`));
	});
}

/** Saves a PNG of the page (or of the first element matching `selector`). */
export async function screenshot(file: string, selector?: string): Promise<void> {
	await call({ screenshot: file, ...(selector ? { selector } : {}) });
}

/** Ghost text the editor renders (inline completions) in the active editor. */
export const GHOST_TEXT = '.editor-instance .monaco-editor .ghost-text-decoration, .editor-instance .monaco-editor .ghost-text, .editor-instance .monaco-editor .ghost-text-decoration-preview';

/** Where the editor draws decorations' text (next edit suggestion hints among them): read with {@link pseudoTexts}. */
export const DECORATION_TEXT = '.editor-instance .monaco-editor .view-lines span';

/** VS Code's completion list (the suggest widget) when open, and its rows (only those scrolled into view). */
export const COMPLETION_LIST = '.editor-widget.suggest-widget.visible';
export const COMPLETION_ROWS = `${COMPLETION_LIST} .monaco-list-row`;

/** The quick input's rows, as rendered (only those scrolled into view). */
export const QUICK_ROWS = '.quick-input-widget .monaco-list-row';

/** `waitUntil` (util.ts) with what is waited for first. */
function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
	return waitUntil(condition, timeoutMs, what);
}

/** Runs a command as a person does: F1, its title typed, Enter; resolves once the quick input titled `opens` shows, if given. */
export async function runFromPalette(title: string, opens?: string): Promise<void> {
	await press('F1');
	// Keys typed before the palette's input has the keyboard would go elsewhere.
	await until(async () => (await query('.quick-input-widget input:focus', { visible: true })).count > 0, 'the command palette, its input holding the keyboard');
	await type(title);
	// Enter runs the focused row: while the palette still filters, that may be another command.
	await until(async () => (await query(`${QUICK_ROWS}.focused`, { visible: true })).texts.some((t) => t.includes(title.replace(/^.*?: /, ''))), `${title} chosen in the palette`);
	await press('Enter');
	if (opens) {
		await until(async () => (await query('.quick-input-widget .quick-input-title')).texts[0] === opens, opens);
	}
}

/** Clicks the first element matching `selector` (and holding `text`, if given) inside the chat's webview pages. */
export async function webviewClick(selector: string, text?: string): Promise<void> {
	await call({ webviewClick: selector, ...(text !== undefined ? { text } : {}) });
}

/** Pastes a 1×1 PNG into the focused element of the focused chat page. */
export async function webviewPasteImage(): Promise<void> {
	await call({ webviewPasteImage: true });
}

/**
 * Drops a file on the first element matching `selector` in the chat's webview pages, as the browser
 * does for a file dragged in from outside (dragenter, dragover, drop), with Shift held if `shift`:
 * VS Code lets a drag from outside reach a webview only while Shift is held (without it, the
 * workbench takes the drag and the page gets no pointer events until it ends).
 */
export async function webviewDrop(selector: string, file: { name: string; mimeType: string; base64: string }, options: { shift?: boolean } = {}): Promise<{ dropped: boolean }> {
	return call({ webviewDrop: selector, file, ...(options.shift ? { shift: true } : {}) });
}

/** How many elements match `selector` inside the chat's webview pages, with their text (a form control's value). */
export async function webviewQuery(selector: string): Promise<{ count: number; texts: string[] }> {
	const result = await call<{ count: number; texts?: string[] }>({ webviewCount: selector, text: true });
	return { count: result.count, texts: result.texts ?? [] };
}

/** The first visible element matching `selector` in the chat's webview pages: its height as drawn, its scrollHeight and clientHeight, and the page's innerHeight. */
export async function webviewBox(selector: string): Promise<{ height: number; scrollHeight: number; clientHeight: number; innerHeight: number }> {
	return call({ webviewBox: selector });
}

/** What in the chat's webview pages could run (scripts, frames, handlers, javascript: URLs), described. */
export async function webviewAudit(): Promise<{ pages: number; findings: string[] }> {
	return call({ webviewAudit: true });
}

/** Benchmark probes inside the chat page (bridge.mjs lists them). */
export async function webviewProbe<T>(probe: 'framesStart' | 'framesStop' | 'scroll', options: Record<string, number> = {}): Promise<T> {
	return call<T>({ webviewEval: probe, ...options });
}

/**
 * Types `text` the moment a chat page has the keyboard in an element matching `selector` (as a person
 * who sees the caret and starts typing), without waiting for anything else. `before` and `after`: how
 * many elements matched `count` in that page just before the first key and just after the last.
 */
export async function typeOnWebviewFocus(selector: string, text: string, options: { delayMs?: number; count?: string; timeoutMs?: number } = {}): Promise<{ before: number; after: number }> {
	return call({ webviewTypeOnFocus: selector, type: text, ...options });
}

/**
 * Each frame of the workbench page but its own: file, whether its document loaded and holds a chat
 * page, its iframes, the service worker controlling it (failure reports: why a webview is blank).
 */
export async function frameReport(): Promise<string[]> {
	return (await call<{ frames: string[] }>({ frameTree: true })).frames;
}

/** Where the keyboard is: each frame whose document has the focus, and its focused element (for failure reports). */
export async function focusReport(): Promise<string[]> {
	return (await call<{ frames: string[] }>({ focus: true })).frames;
}

/** Each chat page's last keyboard events and focus moves, oldest first ("<ms since load> keydown Tab at input#…"). */
export async function focusTrails(): Promise<string[][]> {
	return (await call<{ trails: string[][] }>({ focusTrail: true })).trails;
}

/**
 * How long after an element matching `focused` (as the key trail describes it: `button.permission-option`,
 * `input#elicitation-1-f0`) last took the keyboard the next `key` pressed on it reached its page, by
 * the page's own clock: whether a key meant to land within a guard's half second did.
 */
export async function keyAfterFocus(focused: RegExp, key: string): Promise<number> {
	const trails = await focusTrails();
	const at = (line: string) => Number(line.split(' ', 1)[0]);
	const on = (line: string, what: string) => line.startsWith(`${at(line)} ${what}`) && focused.test(line.slice(line.indexOf(what) + what.length));
	for (const trail of [...trails].reverse()) {
		const last = trail.map((l) => on(l, 'focus ')).lastIndexOf(true);
		const pressed = last < 0 ? undefined : trail.slice(last).find((l) => on(l, `keydown ${key} at `));
		if (pressed !== undefined) {
			return at(pressed) - at(trail[last]!);
		}
	}
	throw new Error(`no ${key} after a focus of ${focused} in the pages' key trails: ${JSON.stringify(trails)}`);
}

/**
 * Whether a key that landed `late` ms after a question appeared (`keyAfterFocus`) came within its
 * guard of `guardMs`: true or false, undefined within 5 ms of the edge (the page's clock is read in
 * whole milliseconds, and the guard starts as the question is drawn, just before it takes the keyboard).
 */
export function withinGuard(late: number, guardMs: number): boolean | undefined {
	return late < guardMs - 5 ? true : late > guardMs + 5 ? false : undefined;
}

/**
 * Waits until `condition` has held for `steadyMs` on end (checked every 25 ms): for the keyboard in
 * a chat page just shown, before typing. VS Code, focusing a webview it shows, takes the keyboard
 * out of the page and gives it back a moment later; keys typed in between go nowhere.
 */
export async function waitForSteady(condition: () => Promise<boolean>, what: string, steadyMs = 500, timeoutMs = 15_000): Promise<void> {
	let since: number | undefined;
	await until(
		async () => {
			if (!(await condition())) {
				since = undefined;
				return false;
			}
			since ??= Date.now();
			return Date.now() - since >= steadyMs;
		},
		`${what} (for ${steadyMs} ms on end)`,
		timeoutMs,
	);
}

/**
 * How long a chat page coming on screen (first, or shown again: its webview made anew) may take to
 * draw: the page load watch's whole schedule when no document of it arrives (5, 10 and 20 s: the
 * loads after the first are the page's way through a slow or failed one, as on a busy machine),
 * and 10 s to draw.
 */
export const PAGE_LOAD_WAIT_MS = unstartedLoadsMs(CHAT_PAGE_LOAD) + 10_000;

/** Waits until `condition` holds, looking again after 25 ms, then less often up to every 200 ms (util.ts: waitUntil). */
export async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
	await until(condition, what, timeoutMs);
}

/**
 * Puts a blank page of the browser in front of the workbench (`true`), or takes it away and brings
 * the workbench to the front again (`false`). Behind another page the workbench keeps working (its
 * editors, commands, clipboard and extension host as before) but the browser spends far less on
 * drawing it: for a suite that edits through commands for minutes and looks at nothing drawn.
 */
export async function behindAnotherPage(on: boolean): Promise<void> {
	await call({ behind: on });
}

/**
 * For a suite whose tests act through VS Code's API and look at nothing drawn: the workbench behind
 * a blank page (behindAnotherPage) from the suite's first test to its last, so the browser spends
 * its time on the suite's work, not on drawing it. Called in the suite's `describe`.
 */
export function behindAnotherPageThroughout(): void {
	before(async () => {
		if (hasBrowser()) {
			await behindAnotherPage(true);
		}
	});
	after(async () => {
		if (hasBrowser()) {
			await behindAnotherPage(false);
		}
	});
}
