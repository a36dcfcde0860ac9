// Phase 3: the window reloaded as a person does it (Developer: Reload Window from the palette,
// real key presses), then chats reopened from the history with the keyboard. The reload ends this
// extension host mid-run; the workbench comes back with the same test payload and runs the suite
// again, which finds the marker the first run left and goes on after the reload.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { hasBrowser, press, query, QUICK_ROWS, runFromPalette, screenshot, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { api, repoRoot, waitUntil } from '../util';
import { facts, keyOf, phase, requests, scratch } from './helpers';

/** README screenshots are refreshed with AGENT_LINK_SCREENSHOTS=1. */
const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());

const marker = () => path.join(scratch(), 'reloaded-by-phase-3');

/** The chat page's text for an entry kind (`.entry-user`, `.entry-agent`). */
async function pageTexts(kind: 'user' | 'agent'): Promise<string[]> {
	return (await webviewQuery(`.entry-${kind}`)).texts;
}

/** Opens **Chat History…** from the palette, types `search` and takes the first row with Enter. */
async function reopenFromHistory(search: string): Promise<void> {
	await runFromPalette('Agent Link: Chat History…', 'Agent Link: Chat History');
	await type(search, 20);
	let rows: string[] = [];
	await waitFor(async () => {
		rows = (await query(QUICK_ROWS)).texts;
		// The first row is the one Enter takes ("More from …" rows stay below whatever is typed).
		return rows[0]?.includes(search) === true && rows.filter((r) => r.includes(search)).length === 1;
	}, `only "${search}" left in the history`).catch((error: unknown) => {
		throw new Error(`${String(error)}; rows: ${JSON.stringify(rows)}`);
	});
	await press('Enter');
	await waitFor(async () => (await query('.quick-input-widget', { visible: true })).count === 0, 'the picker closed');
}

if (phase === 3) {
	describe('chat history: a window reloaded through the browser', function () {
		this.timeout(120_000);
		let a: AgentLinkApi;

		before(async function () {
			if (!hasBrowser()) {
				this.skip();
			}
			a = await api();
			await a.chatController.restored;
		});

		afterEach(async function () {
			if (this.currentTest?.state === 'failed') {
				console.log('log:', a.recentLog().slice(-30).join('\n'));
				await screenshot(path.join(process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir(), `chat-history-reload-failed-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}.png`)).catch(() => {});
			}
		});

		if (!fs.existsSync(marker())) {
			it('reloads the window from the palette', async () => {
				await a.chatController.flushHistory();
				fs.writeFileSync(marker(), `${process.pid}\n`);
				await runFromPalette('Developer: Reload Window');
				// The reload ends this extension host: this test never finishes, and its second run goes on below.
				await new Promise((resolve) => setTimeout(resolve, 110_000));
				assert.fail('the window did not reload');
			});
			return;
		}

		it('comes back in a new extension host with the tabs of the window before', async () => {
			assert.notEqual(fs.readFileSync(marker(), 'utf8').trim(), String(process.pid), 'another extension host');
			const f = facts();
			for (const id of [f.listerA.historyId, f.plain.historyId, f.resumer.historyId]) {
				assert.ok(keyOf(a, id), `the tab of ${id} is back`);
			}
			await vscode.commands.executeCommand('agentLink.chat.focus');
			await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the chat input focused');
			await waitFor(async () => {
				const titles = (await webviewQuery('.tab-title')).texts;
				return ['Plan the release', 'Explain the build', 'Remember the number 42'].every((t) => titles.includes(t));
			}, 'the tabs in the page');
		});

		it('reopens the last chat, read-only, from the history with the keyboard', async () => {
			const f = facts();
			await a.chatController.closeTab(keyOf(a, f.plain.historyId)!);
			await waitFor(async () => !(await webviewQuery('.tab-title')).texts.includes('Explain the build'), 'its tab closed');
			await reopenFromHistory('Explain the build');
			// The picker closes first; the chat opens from its stored transcript right after.
			await waitUntil(() => keyOf(a, f.plain.historyId) !== undefined, 10_000, 'the chat open again');
			const key = keyOf(a, f.plain.historyId);
			assert.equal(a.chatController.selectedKey, key);
			await waitFor(async () => (await pageTexts('agent')).some((t) => t.includes('Plain answer: the build runs esbuild.')), 'its transcript drawn');
			assert.ok((await pageTexts('user')).some((t) => t.includes('Explain the build')));
			assert.deepEqual((await webviewQuery('.tab.selected .tab-title')).texts, ['Explain the build'], 'its tab marked as the one shown');
			await waitFor(async () => (await webviewQuery('.banner-text')).texts.some((t) => /^Read-only: History Plain cannot take a conversation up again/.test(t)), 'the read-only banner');
			assert.equal((await webviewQuery('.banner-action:not([hidden])')).count, 1, 'with New chat from this one');
			await screenshot(path.join(SHOTS, 'chat-read-only.png'), '.part.sidebar');
		});

		it('reopens a chat whose agent loads it, and goes on with it by keyboard', async () => {
			const f = facts();
			const before = requests('lister', 'session/load').length;
			await a.chatController.closeTab(keyOf(a, f.listerA.historyId)!);
			await reopenFromHistory('Plan the release');
			// The picker closes first; the chat opens right after (as above).
			await waitUntil(() => keyOf(a, f.listerA.historyId) !== undefined, 10_000, 'the chat open again');
			const key = keyOf(a, f.listerA.historyId)!;
			await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'taken up again with session/load');
			assert.equal(requests('lister', 'session/load').length, before + 1);
			await waitFor(async () => (await pageTexts('user')).some((t) => t.includes('Ship it')), 'the stored transcript drawn');
			const answers = (await pageTexts('agent')).length;
			await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
			await type('One more thing', 10);
			await press('Enter');
			await waitFor(async () => (await pageTexts('agent')).length === answers + 1, 'the answer to the new prompt');
			assert.deepEqual(
				(await pageTexts('user')).map((t) => t.replace(/^You/, '').trim()),
				['Plan the release', 'Ship it', 'One more thing'],
			);
			// The page's own New chat button of a read-only chat.
			await a.chatController.showTab(keyOf(a, f.plain.historyId));
			const tabs = a.chatController.tabKeys.length;
			await webviewClick('.banner-action', 'New chat from this one');
			await waitUntil(() => a.chatController.tabKeys.length === tabs + 1, 20_000, 'a new chat');
			await waitFor(async () => (await webviewQuery('.composer .chips .chip')).texts.some((t) => t.includes(`${f.plain.historyId}.md`)), 'the old transcript attached in the input');
			await waitFor(async () => (await webviewQuery('textarea.prompt-input')).texts.some((t) => t.includes('Explain the build')), 'the input says which chat');
		});
	});
}
