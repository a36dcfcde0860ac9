// Keys typed into the chat the moment its input has the keyboard, before the page has drawn what it
// opened for: New Chat from the palette in a window where the chat has never been open (this file
// sorts first in its suite for that), a second New Chat typed into at once, and a chat shown again
// (its page loaded again) with a draft in it. Every key typed lands in the chat it was meant for.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Entry } from '../../../../src/common/chat/transcript';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { PAGE_LOAD_WAIT_MS, press, runFromPalette, screenshot, type, typeOnWebviewFocus, waitFor, waitForSteady, webviewQuery } from '../browser';
import { waitUntil } from '../util';
import { chatHooks } from '../chatKit';

const SHOTS = process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir();
const INPUT = 'textarea.prompt-input';

const prompts = (a: AgentLinkApi, key: string) =>
	(a.chatController.tab(key)?.transcript.snapshot().entries ?? ([] as readonly Entry[])).flatMap((e) => (e.kind === 'user' ? [e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('')] : []));
const inputText = async () => (await webviewQuery(INPUT)).texts[0];
const inputFocused = async () => (await webviewQuery(`${INPUT}:focus`)).count === 1;

/** The tab New Chat opened (the one more than `before`). */
async function newTab(a: AgentLinkApi, before: number): Promise<string> {
	await waitUntil(() => a.chatController.tabKeys.length > before, 20_000, 'a new tab');
	return a.chatController.tabKeys[a.chatController.tabKeys.length - 1]!;
}

/**
 * Keeps the extension host busy for `ms` from the moment the chat is on screen (as it is while a real
 * agent starts: the report came from runs with Claude Code and Gemini CLI). The page, drawn and given
 * the keyboard by VS Code meanwhile, waits that long for the host's state.
 */
async function busyAsTheChatOpens(a: AgentLinkApi, ms: number): Promise<void> {
	const deadline = Date.now() + 20_000;
	while (!a.chatController.visible) {
		if (Date.now() > deadline) {
			throw new Error('timed out waiting for the chat on screen');
		}
		await new Promise((r) => setTimeout(r, 2));
	}
	await new Promise((r) => setTimeout(r, 20)); // what the host sent as it showed the chat (the page) goes out first
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('chat panel: the first keys of a chat', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('first-keys');

	it('keeps every key typed as New Chat first opens the chat, and sends the whole prompt with Enter', async () => {
		const a = chatApi();
		assert.equal((await webviewQuery('#app')).count, 0, 'no chat page yet: this test runs first in its window');
		// Typed the moment the input has the keyboard, as a person who sees the caret; the extension
		// host busy as the chat opens, as it is while a real agent starts.
		const typing = typeOnWebviewFocus(INPUT, 'Please tidy the config', { count: '.tab-button', timeoutMs: PAGE_LOAD_WAIT_MS });
		const busy = busyAsTheChatOpens(a, 3000);
		await runFromPalette('Agent Link: New Chat');
		await busy;
		const typed = await typing;
		console.log(`      tabs drawn when the first key was typed: ${typed.before}; after the last: ${typed.after}`);
		const key = await newTab(a, 0);
		await waitFor(async () => (await webviewQuery('.tab-button')).count === 1, 'the new chat’s tab drawn');
		assert.equal(await inputText(), 'Please tidy the config', 'the whole prompt is in the input');
		await screenshot(path.join(SHOTS, 'chat-first-keys.png'));
		await press('Enter');
		await waitUntil(() => prompts(a, key).length === 1, 20_000, 'the prompt sent');
		assert.deepEqual(prompts(a, key), ['Please tidy the config']);
		await waitFor(async () => (await webviewQuery('.entry-user .plain-text')).texts.includes('Please tidy the config'), 'the prompt in the transcript');
	});

	it('puts keys typed as a second New Chat opens into the new chat, not the one that had the keyboard', async () => {
		const a = chatApi();
		await vscode.commands.executeCommand('agentLink.chat.new', 'SDK Example Agent');
		const first = await newTab(a, 0);
		await waitForSteady(inputFocused, 'the first chat’s input');
		await type('a draft of the first', 10);
		await runFromPalette('Agent Link: New Chat');
		await typeOnWebviewFocus(INPUT, 'Second question', { count: '.tab-button' });
		const second = await newTab(a, 1);
		await waitFor(async () => (await webviewQuery('.tab-button')).count === 2 && (await webviewQuery('.tab.selected .tab-button')).count === 1, 'the second chat’s tab drawn');
		await waitFor(async () => a.chatController.selectedKey === second, 'the second chat selected');
		assert.equal(await inputText(), 'Second question', 'the whole prompt is in the new chat’s input');
		await press('Enter');
		await waitUntil(() => prompts(a, second).length === 1, 20_000, 'the prompt sent');
		assert.deepEqual(prompts(a, second), ['Second question']);
		assert.deepEqual(prompts(a, first), [], 'nothing sent in the first chat');
		await a.chatController.showTab(first);
		await waitFor(async () => (await inputText()) === 'a draft of the first', 'the first chat’s draft as it was', 10_000);
	});

	it('keeps a draft and the keys typed as the chat is shown again (its page loaded again)', async () => {
		const a = chatApi();
		await vscode.commands.executeCommand('agentLink.chat.new', 'SDK Example Agent');
		await newTab(a, 0);
		await waitForSteady(inputFocused, 'the input');
		await type('Draft, ', 10);
		// Another view in the side bar: the chat's page is dropped (not kept while hidden).
		await vscode.commands.executeCommand('workbench.view.explorer');
		await waitFor(async () => (await webviewQuery('#app')).count === 0, 'the chat page gone while hidden');
		await waitUntil(() => !a.chatController.visible, 10_000, 'the chat hidden');
		const typing = typeOnWebviewFocus(INPUT, 'then more', { count: '.tab-button', timeoutMs: PAGE_LOAD_WAIT_MS });
		const busy = busyAsTheChatOpens(a, 3000);
		await press('Control+Alt+j'); // Focus Chat
		await busy;
		const typed = await typing;
		console.log(`      tabs drawn when the first key was typed: ${typed.before}; after the last: ${typed.after}`);
		await waitFor(async () => (await webviewQuery('.tab-button')).count === 1, 'the chat’s tab drawn', PAGE_LOAD_WAIT_MS);
		assert.equal(await inputText(), 'Draft, then more', 'the draft, and the keys typed after it');
	});
});
