// The chat panel as a person uses it, through the browser with real key presses: F1 → New Chat →
// a prompt typed and sent with Enter → the SDK example agent's streamed answer → its permission
// prompt answered by keyboard → the turn's end; two chats with two agents streaming side by side;
// Stop with Escape; config options and slash commands; the keybinding; screenshots in both themes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { encodeCommand, encodeRequest, PageLifecycle, PageRequests } from '../../../../src/common/chat/messages';
import type { Entry } from '../../../../src/common/chat/transcript';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { keyAfterFocus, press, query, runFromPalette, screenshot, type, typeOnWebviewFocus, waitFor, waitForSteady, webviewQuery, withinGuard } from '../browser';
import { ARM_MS as PERMISSION_ARM_MS } from '../../../../src/webview/chat/arming';
import { repoRoot, waitForState, waitUntil } from '../util';
import { chatHooks } from '../chatKit';

/** The keybinding of **Focus Chat** (package.json); checked against VS Code's own defaults below. */
const FOCUS_KEY = 'ctrl+alt+j';

const transcriptOf = (a: AgentLinkApi, key: string): readonly Entry[] => a.chatController.tab(key)?.transcript.snapshot().entries ?? [];
const textOf = (entries: readonly Entry[], kind: 'agent' | 'user') =>
	entries
		.filter((e) => e.kind === kind)
		.flatMap((e) => ('blocks' in e ? e.blocks : []))
		.map((b) => (b.type === 'text' ? b.text : ''))
		.join('');

async function newTab(a: AgentLinkApi, before: number): Promise<string> {
	await waitUntil(() => a.chatController.tabKeys.length > before, 20_000, 'a new tab');
	const key = a.chatController.tabKeys[a.chatController.tabKeys.length - 1]!;
	await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, `tab ${key} ready (${a.chatController.tab(key)?.state})`);
	return key;
}

/** The chat input has the keyboard focus (typing goes there). */
async function inputFocused(): Promise<boolean> {
	return (await webviewQuery('textarea.prompt-input:focus')).count > 0;
}

describe('chat panel', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('chat-panel', { closeTabs: false });

	it('runs a full turn with the SDK example agent from the palette, the permission answered by keyboard', async () => {
		const a = chatApi();
		await runFromPalette('Agent Link: New Chat');
		const key = await newTab(a, 0);
		assert.equal(a.chatController.tab(key)?.session?.agentName, 'SDK Example Agent', 'New Chat uses the chat agent (Select Agent)');
		await waitForSteady(inputFocused, 'the chat input focused');
		await type('Please tidy the config', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.entry-user .plain-text')).texts.includes('Please tidy the config'), 'the prompt in the transcript');
		// The answer streams in, then the agent asks before editing.
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown')).texts.join(' ').includes("I'll help you with that"), 'the streamed answer');
		// A stray Enter in the first half second is ignored; focus is on the first option (allow).
		// The Enter is pressed the moment that option has the keyboard (checked in the page, not
		// over the test's polling), and when it landed is read from the page's own clock: on a
		// machine so busy that it came after the half second, it must answer instead.
		const stray = await typeOnWebviewFocus('.permission.pending .permission-option', '\n', { timeoutMs: 20_000, count: '.permission.pending .permission-option' });
		assert.equal(stray.before, 2, 'two options when the Enter was pressed');
		const late = await keyAfterFocus(/^button\.permission-option/, 'Enter');
		await new Promise((r) => setTimeout(r, 150));
		const stillAsking = (await webviewQuery('.permission.pending')).count === 1;
		const within = withinGuard(late, PERMISSION_ARM_MS);
		if (within === true) {
			assert.ok(stillAsking, `an Enter ${late} ms after the prompt appeared does not answer`);
		} else if (within === false) {
			await waitFor(async () => (await webviewQuery('.permission.pending')).count === 0, `an Enter ${late} ms after the prompt appeared answers`);
		}
		if ((await webviewQuery('.permission.pending')).count === 1) {
			await new Promise((r) => setTimeout(r, PERMISSION_ARM_MS));
			await press('Enter');
		}
		await waitFor(async () => (await webviewQuery('.turn-end')).texts.some((t) => t.includes('Done')), 'the turn to end', 20_000);
		const entries = transcriptOf(a, key);
		const asked = entries.find((e) => e.kind === 'tool_call' && e.permission);
		assert.ok(asked && asked.kind === 'tool_call' && asked.permission?.state === 'selected' && asked.permission.optionId === 'allow', JSON.stringify(asked));
		assert.match(textOf(entries, 'agent'), /successfully updated the configuration/);
		assert.equal((await webviewQuery('.tool-call')).count >= 2, true, 'tool calls drawn');
		assert.ok((await webviewQuery('.tab-title')).texts.includes('Please tidy the config'), 'the tab is titled from the first prompt');
		// History: Up brings the last prompt back.
		await waitForSteady(inputFocused, 'focus back in the input');
		await press('ArrowUp');
		await waitFor(async () => (await webviewQuery('textarea.prompt-input')).count === 1, 'input');
		await screenshotBoth('chat-turn');
		await press('Control+a', 'Delete');
	});

	it('runs two chats with two agents streaming side by side while the NES agent keeps its session; closing one leaves the other', async () => {
		const a = chatApi();
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready');
		await waitUntil(() => a.nes.current !== undefined, 20_000, 'the NES session');
		const nesPid = a.nesAgents.pid;
		const before = a.chatController.tabKeys.length;
		await vscode.commands.executeCommand('agentLink.chat.new', 'Chat Side A');
		const first = await newTab(a, before);
		await waitForSteady(inputFocused, 'the input of chat A');
		await type('go a', 10);
		await press('Enter');
		await vscode.commands.executeCommand('agentLink.chat.new', 'Chat Side B');
		const second = await newTab(a, before + 1);
		await waitFor(async () => (await webviewQuery('.tab.selected .tab-agent')).texts[0] === ', Chat Side B' && (await webviewQuery('.composer .agent-name')).texts[0] === 'Chat Side B', 'chat B shown');
		await waitForSteady(inputFocused, 'the input of chat B');
		await type('go b', 10);
		await press('Enter');
		const running = (key: string) => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'running';
		await waitUntil(() => running(first) && running(second), 10_000, 'both turns running at once');
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown')).texts.join('').includes('B one.'), 'B streaming in its tab');
		// Both agents hold their turns open until this go-ahead (see suites.mjs): the check above never races a timer.
		fs.writeFileSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.chat-side-by-side-go'), '');
		await waitUntil(() => !running(first) && !running(second), 20_000, 'both turns ended');
		assert.equal(textOf(transcriptOf(a, first), 'agent'), 'A one. A two.');
		assert.equal(textOf(transcriptOf(a, second), 'agent'), 'B one. B two.');
		assert.deepEqual((await webviewQuery('.tab-agent')).texts.slice(-2), [', Chat Side A', ', Chat Side B']);
		const pidA = a.pool.get('Chat Side A')?.pid;
		assert.ok(pidA);
		await a.chatController.closeTab(first);
		await waitUntil(() => a.pool.get('Chat Side A') === undefined, 10_000, 'Chat Side A stopped once its only chat closed');
		assert.equal(a.chatController.tab(second)?.state, 'ready', 'the other chat goes on');
		assert.ok(a.pool.get('Chat Side B')?.pid, 'and its agent runs');
		assert.equal(a.nesAgents.pid, nesPid, 'the NES agent kept running');
		assert.ok(a.nes.current, 'with its NES session');
		await a.chatController.closeTab(second);
	});

	it('stops a turn with Escape: session/cancel, and the turn says it stopped', async () => {
		const a = chatApi();
		const before = a.chatController.tabKeys.length;
		await vscode.commands.executeCommand('agentLink.chat.new', 'Chat Long');
		const key = await newTab(a, before);
		await waitForSteady(inputFocused, 'the input');
		await type('take your time', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown')).texts.join('').includes('Thinking hard.'), 'the answer streaming');
		await waitFor(async () => (await webviewQuery('.icon-button.stop:not([hidden])')).count === 1, 'the Stop button');
		await press('Escape');
		await waitFor(async () => (await webviewQuery('.turn-end')).texts.some((t) => t.includes('Stopped')), 'the turn stopped', 10_000);
		const end = transcriptOf(a, key).find((e) => e.kind === 'turn_end');
		assert.equal(end?.kind === 'turn_end' ? end.stopReason : undefined, 'cancelled');
		await a.chatController.closeTab(key);
	});

	it('offers the agent config options as dropdowns and its slash commands after /', async () => {
		const a = chatApi();
		const before = a.chatController.tabKeys.length;
		await vscode.commands.executeCommand('agentLink.chat.new', 'Chat Options');
		const key = await newTab(a, before);
		await waitFor(async () => (await webviewQuery('.session-options select option')).texts.includes('Large model'), 'the model dropdown');
		await waitForSteady(inputFocused, 'the input');
		await type('hello', 10);
		await press('Enter');
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.commands.length === 2, 10_000, 'commands');
		await waitFor(async () => (await webviewQuery('.turn-end')).count > 0, 'the turn to end');
		await type('/re', 30);
		await waitFor(async () => (await webviewQuery('.suggestions .suggestion')).texts.some((t) => t.includes('/review') && t.includes('what to review')), 'the /review suggestion');
		await press('Tab');
		await waitFor(async () => (await webviewQuery('.suggestions:not([hidden])')).count === 0, 'the suggestions closed');
		await press('Control+a', 'Delete');
		await a.chatController.closeTab(key);
	});

	it('draws thoughts, plans, highlighted code, diffs and usage; the permission prompt answered by Tab and Enter', async () => {
		const a = chatApi();
		const before = a.chatController.tabKeys.length;
		await vscode.commands.executeCommand('agentLink.chat.new', 'Chat Showcase');
		const key = await newTab(a, before);
		await waitForSteady(inputFocused, 'the input');
		await type('Raise the retry limit to 5', 5);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 3, 'the permission prompt', 20_000);
		assert.equal((await webviewQuery('.plan-item')).count, 3, 'the plan as a checklist');
		assert.equal((await webviewQuery('.plan-item.completed')).count, 1);
		assert.ok((await webviewQuery('.diff-line.added .diff-text')).texts.some((t) => t.includes('"retries": 5')), 'the diff drawn inline');
		assert.ok((await webviewQuery('.diff-line.removed .diff-text')).texts.some((t) => t.includes('"retries": 3')));
		await waitFor(async () => (await webviewQuery('.code-block .hljs-keyword')).count > 0, 'the code block highlighted');
		assert.equal((await webviewQuery('.code-block .code-actions button')).count, 2, 'copy and insert buttons');
		assert.ok((await webviewQuery('.usage')).texts[0]?.includes('18.2k / 200.0k tokens'), 'usage near the input');
		assert.equal((await webviewQuery('details.thought')).count, 1, 'the thought, collapsed');
		await new Promise((r) => setTimeout(r, 600));
		await screenshotBoth('chat-permission');
		// Focus is on the first option; Tab moves to the second (always allow), Enter picks it.
		await press('Tab', 'Enter');
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 10_000, 'the turn to end');
		const call = transcriptOf(a, key).find((e) => e.kind === 'tool_call');
		assert.equal(call?.kind === 'tool_call' ? call.permission?.optionId : undefined, 'always');
		await waitFor(async () => (await webviewQuery('.permission.answered')).texts.some((t) => t.includes('Always allow edits')), 'the answer shown');
		await a.chatController.closeTab(key);
	});

	// How often and when a page is loaded again is the page load watch's (unit-tested on a fake clock:
	// test/unit/pageLoadWatch.test.ts); this is the controller's wiring of it, three pages at once.
	it('loads a page on screen again when it has not asked for the state within 5 s; never one that is hidden or has loaded', async function () {
		this.timeout(60_000);
		const a = chatApi();
		/** A page whose webview has not loaded: it sends nothing until the test makes it ask for the state. */
		const page = (visible: boolean) => {
			const fromPage = new vscode.EventEmitter<unknown>();
			const visibility = new vscode.EventEmitter<void>();
			const posted: unknown[] = [];
			const webview = { onDidReceiveMessage: fromPage.event, postMessage: (m: unknown) => (posted.push(m), Promise.resolve(true)) } as unknown as vscode.Webview;
			const state = { reloads: 0, posted, fromPage, visibility, visible, connection: undefined as vscode.Disposable | undefined };
			state.connection = a.chatController.attach({
				webview,
				isVisible: () => state.visible,
				onDidChangeVisibility: visibility.event,
				reload: () => state.reloads++,
				currentLoad: () => `load-${state.reloads}`,
			});
			return state;
		};
		// Its document arrived (the line the page sends before its script has loaded): a busy machine's
		// page gets 30 s. Attached first, so it would be loaded again before the blank one without that.
		const slow = page(true);
		const blank = page(true);
		const loaded = page(true);
		const hidden = page(false);
		try {
			slow.fromPage.fire(encodeCommand(PageLifecycle.started, { load: 'load-0' }));
			loaded.fromPage.fire(encodeRequest(PageRequests.getState, 1, {}));
			await waitUntil(() => loaded.posted.some((m) => (m as { id?: number }).id === 1), 3000, 'the state sent');
			// A page shown after it was attached is watched from then on: shown and hidden again at once, not.
			hidden.visible = true;
			hidden.visibility.fire();
			hidden.visible = false;
			hidden.visibility.fire();
			await waitUntil(() => blank.reloads === 1, 8000, 'the blank page loaded again after 5 s');
			assert.ok(a.recentLog().some((l) => /chat page did not load within 5 s; loading it again/.test(l)), 'the log says so');
			assert.equal(loaded.reloads, 0, 'a page that loaded is not loaded again');
			assert.equal(hidden.reloads, 0, 'a hidden page is not watched');
			assert.equal(slow.reloads, 0, 'a page whose document arrived is not loaded again after 5 s');
		} finally {
			for (const p of [blank, loaded, hidden, slow]) {
				p.connection?.dispose();
				p.fromPage.dispose();
				p.visibility.dispose();
			}
		}
	});

	// Seen at a load of 30 and more: a page slow to load was loaded again, the first document's state
	// request (sent just before) arrived after that, marked the page loaded and took the focus the
	// user had asked for; the document that replaced it never got the keyboard.
	it('gives the keyboard the user asked for to the page loaded again, not to the state request of the document it replaced', async function () {
		this.timeout(60_000);
		const a = chatApi();
		await vscode.commands.executeCommand('workbench.action.closeSidebar');
		await waitUntil(() => !a.chatController.visible, 5000, 'the chat hidden');
		const fromPage = new vscode.EventEmitter<unknown>();
		const visibility = new vscode.EventEmitter<void>();
		const posted: { id?: number; method?: string }[] = [];
		const webview = { onDidReceiveMessage: fromPage.event, postMessage: (m: unknown) => (posted.push(m as { id?: number }), Promise.resolve(true)) } as unknown as vscode.Webview;
		let reloads = 0;
		const connection = a.chatController.attach({ webview, isVisible: () => true, onDidChangeVisibility: visibility.event, reload: () => reloads++, currentLoad: () => `load-${reloads}` });
		try {
			// No page on screen has loaded: the input is focused when one does.
			a.chatController.focusInput();
			await waitUntil(() => reloads === 1, 8000, 'the page loaded again after 5 s');
			fromPage.fire(encodeRequest(PageRequests.getState, 1, { load: 'load-0' }));
			fromPage.fire(encodeRequest(PageRequests.getState, 1, { load: 'load-1' }));
			await waitUntil(() => posted.some((m) => m.id === 1), 3000, 'the state sent');
			await new Promise((r) => setTimeout(r, 300));
			// Its answer, then the focus: the replaced document's request was left unanswered.
			const answer = posted.map((m) => m.id).lastIndexOf(1);
			assert.ok(posted.slice(answer).some((m) => m.method === 'chat/focusInput'), 'the page loaded again gets the keyboard');
			assert.equal(posted.filter((m) => m.id === 1).length, 1, 'only the current document is answered');
		} finally {
			connection.dispose();
			fromPage.dispose();
			visibility.dispose();
			await vscode.commands.executeCommand('agentLink.chat.focus');
			await waitUntil(() => a.chatController.visible, 10_000, 'the chat shown');
		}
	});

	it('binds Focus Chat to a key VS Code itself does not use', async () => {
		const defaults = await vscode.workspace.openTextDocument(vscode.Uri.parse('vscode://defaultsettings/keybindings.json'));
		// The list holds extensions' bindings too: leave out this extension's own.
		const bindings = [...defaults.getText().matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map((m) => ({ key: m[1]!.toLowerCase(), command: m[2]! }));
		const keys = bindings.filter((b) => !b.command.replace(/^-/, '').startsWith('agentLink.')).map((b) => b.key);
		assert.ok(keys.length > 500, `VS Code's default keybindings read (${keys.length})`);
		assert.ok(bindings.some((b) => b.command === 'agentLink.chat.focus' && b.key === FOCUS_KEY), 'ours is in the list');
		const clashes = keys.filter((k) => k === FOCUS_KEY || k.startsWith(`${FOCUS_KEY} `));
		assert.deepEqual(clashes, [], `${FOCUS_KEY} is one of VS Code ${vscode.version}'s default keys`);
		const manifest = vscode.extensions.getExtension('agent-link.agent-link')!.packageJSON as { contributes: { keybindings: { command: string; key: string }[] } };
		assert.equal(manifest.contributes.keybindings.find((k) => k.command === 'agentLink.chat.focus')?.key, FOCUS_KEY);
	});
});

/** Screenshots of the chat in a light and a dark theme: into the README's folder with AGENT_LINK_SCREENSHOTS=1, else the temp folder, for a look. */
async function screenshotBoth(name: string): Promise<void> {
	const dir = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
	const config = vscode.workspace.getConfiguration('workbench');
	for (const [theme, suffix] of [
		['Default Light Modern', 'light'],
		['Default Dark Modern', 'dark'],
	] as const) {
		await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
		await themeDrawn(suffix);
		await screenshot(path.join(dir, `${name}-${suffix}.png`), '.part.sidebar');
	}
	await config.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
	await themeDrawn('light');
}

/** Waits until the workbench and every chat page have taken the theme (VS Code gives a page its colours with the body's class). */
async function themeDrawn(kind: 'light' | 'dark'): Promise<void> {
	const [workbench, page] = kind === 'dark' ? ['.monaco-workbench.vs-dark', 'body.vscode-dark'] : ['.monaco-workbench.vs', 'body.vscode-light'];
	await waitFor(async () => (await query(workbench)).count === 1 && (await webviewQuery(page)).count === (await webviewQuery('body')).count, `the ${kind} theme drawn`);
}
