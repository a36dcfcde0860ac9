// The hooks every chat test through the browser shares: skipped without a browser; the API once
// the chat agent is ready; on a failure, a screenshot and the end of the log; every chat tab closed
// after each test.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../src/vscode/extension';
import { hasBrowser, screenshot, waitForSteady, webviewQuery } from './browser';
import { api, waitForState, waitUntil } from './util';

/** Whether the chat page's input has the keyboard. */
export const inputFocused = async (): Promise<boolean> => (await webviewQuery('textarea.prompt-input:focus')).count === 1;

/** A new chat with `agent` (by name), once it is ready and its input has the keyboard; its tab's key. */
export async function openChat(a: AgentLinkApi, agent: string): Promise<string> {
	const key = await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', agent);
	assert.ok(key, `a chat with ${agent}`);
	await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, `${agent} ready`);
	await waitForSteady(inputFocused, 'the input focused');
	return key;
}

/** Registers the hooks in the current `describe`; the returned function gives the API inside tests. */
export function chatHooks(name: string, options: { readonly closeTabs?: boolean; readonly onFailure?: (a: AgentLinkApi) => Promise<void> } = {}): () => AgentLinkApi {
	let a: AgentLinkApi | undefined;
	before(async function () {
		if (!hasBrowser()) {
			this.skip();
		}
		a = await api();
		await waitForState(a, (s) => s.kind === 'ready');
	});
	afterEach(async function () {
		if (!a) {
			return;
		}
		if (this.currentTest?.state === 'failed') {
			await screenshot(path.join(process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir(), `${name}-failed-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}.png`)).catch(() => {});
			console.log('log:', a.recentLog().slice(-25).join('\n'));
			await options.onFailure?.(a);
			// A question left open (a password box, a quick pick) would keep the keyboard from the next tests.
			await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
		}
		if (options.closeTabs !== false) {
			for (const key of [...a.chatController.tabKeys]) {
				await a.chatController.closeTab(key);
			}
		}
	});
	return () => {
		if (!a) {
			throw new Error('the API is not there yet (before() has not run)');
		}
		return a;
	};
}
