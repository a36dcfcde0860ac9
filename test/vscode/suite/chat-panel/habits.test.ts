// The chat with real agents' habits and a person's, through the browser with real keys and clicks:
// the SDK example agent's tool call ids, the same in every turn; a chat tab chosen with the mouse
// and then typed into; the command palette opened at once after answering a permission prompt.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Entry } from '../../../../src/common/chat/transcript';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import * as os from 'node:os';
import * as path from 'node:path';
import { click, focusReport, press, query, QUICK_ROWS, runFromPalette, screenshot, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { waitUntil } from '../util';
import { chatHooks, inputFocused, openChat } from '../chatKit';

/** Screenshots to look at (not the README's). */
const SHOTS = process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir();
/** The chat's actions in a title bar: the side bar's (the view's) or the editor's. */
const VIEW_ACTION = (label: string) => `.part.sidebar .title-actions .action-label[aria-label="${label}"]`;
const EDITOR_ACTION = (label: string) => `.editor-group-container.active .editor-actions .action-label[aria-label="${label}"]`;
const ACTIONS = ['New Chat', 'New Chat with Another Agent…', 'Chat History…'];

const entriesOf = (a: AgentLinkApi, key: string): readonly Entry[] => a.chatController.tab(key)?.transcript.snapshot().entries ?? [];
const idle = (a: AgentLinkApi, key: string) => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle';
const prompts = (a: AgentLinkApi, key: string) => entriesOf(a, key).flatMap((e) => (e.kind === 'user' ? e.blocks.map((b) => (b.type === 'text' ? b.text : '')) : []));


/** Sends `text` from the focused input and answers the SDK example agent's permission prompt with Enter (allow). */
async function turnAnsweredByKeyboard(text: string): Promise<void> {
	await type(text, 10);
	await press('Enter');
	await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 2, 'the permission prompt', 20_000);
	// The buttons ignore keys for half a second after they appear.
	await new Promise((r) => setTimeout(r, 650));
	await press('Enter');
}

describe('chat panel: real habits', function () {
	this.timeout(180_000);
	const chatApi = chatHooks('habits');

	it('gives a second turn that reuses the tool call ids its own card, stopped with Escape; the first turn keeps ✓', async () => {
		const a = chatApi();
		const key = await openChat(a, 'SDK Example Agent');
		await turnAnsweredByKeyboard('first turn');
		await waitFor(async () => (await webviewQuery('.turn-end')).texts.some((t) => t.includes('Done')), 'the first turn to end', 20_000);
		const statuses = async () => (await webviewQuery('.tool-call .tool-status')).texts;
		const titles = async () => (await webviewQuery('.tool-call .tool-title')).texts;
		assert.deepEqual(await statuses(), ['Done', 'Done'], 'both tool calls of the first turn done');

		// The second turn sends call_1 again: its own card, pending, which Escape leaves as it is.
		await waitForSteady(inputFocused, 'the input');
		await type('second turn', 10);
		await press('Enter');
		await waitFor(async () => (await titles()).length === 3, 'the second turn’s tool call drawn as a card of its own', 20_000);
		await press('Escape');
		await waitFor(async () => (await webviewQuery('.turn-end')).texts.some((t) => t.includes('Stopped')), 'the second turn stopped');
		assert.deepEqual(await titles(), ['Reading project files', 'Modifying critical configuration file', 'Reading project files']);
		const entries = entriesOf(a, key);
		const secondPrompt = entries.filter((e) => e.kind === 'user')[1]!;
		const cards = entries.filter((e) => e.kind === 'tool_call');
		// The second turn's card shows what the agent last said of it: pending when the Escape came
		// first (as it does), done when the agent finished reading before the Escape reached it (seen
		// beside another full run, at a load of 25); never anything the chat made up on stopping.
		const last = cards[2]?.kind === 'tool_call' ? cards[2].status : undefined;
		assert.ok(last === 'pending' || last === 'completed', `the second turn's card as the agent left it: ${last}`);
		assert.deepEqual(await statuses(), ['Done', 'Done', last === 'completed' ? 'Done' : 'Pending'], 'the first turn’s cards keep ✓');
		assert.deepEqual(
			cards.map((c) => [c.toolCallId, c.id > secondPrompt.id]),
			[
				['call_1', false],
				['call_2', false],
				['call_1', true],
			],
		);
		const reuses = a.recentLog().filter((l) => l.includes(`Chat ${key}: SDK Example Agent used the tool call id "call_1" of an earlier turn again`));
		assert.equal(reuses.length, 1, 'the reuse logged once');
	});

	it('sends what is typed after a tab is chosen with the mouse to that chat; arrow keys on the tabs still move between them', async () => {
		const a = chatApi();
		const first = await openChat(a, 'Chat A');
		const second = await openChat(a, 'Chat B');
		assert.equal(a.chatController.selectedKey, second);
		await webviewClick(`.tab-button[data-key="${first}"]`);
		await waitFor(async () => (await webviewQuery('.tab.selected .tab-agent')).texts[0] === ', Chat A', 'chat A shown');
		await type('typed after a click', 10);
		await press('Enter');
		await waitUntil(() => prompts(a, first).includes('typed after a click'), 10_000, `the prompt sent to chat A (keyboard: ${(await focusReport()).join('; ')})`);
		assert.deepEqual(prompts(a, second), [], 'nothing went to chat B');
		await waitUntil(() => idle(a, first), 20_000, 'chat A answered');

		// The keyboard on the tab strip: Shift+Tab from the input back to the tabs, then arrows.
		for (let i = 0; i < 12 && (await webviewQuery('.tab-button:focus')).count === 0; i++) {
			await press('Shift+Tab');
		}
		await waitFor(async () => (await webviewQuery(`.tab-button[data-key="${first}"]:focus`)).count === 1, 'chat A’s tab focused from the keyboard');
		await press('ArrowRight');
		await waitUntil(() => a.chatController.selectedKey === second, 10_000, 'ArrowRight chose chat B');
		// The host's state after the choice draws the tabs again: the keyboard stays on the tab.
		await waitForSteady(async () => (await webviewQuery(`.tab-button[data-key="${second}"]:focus`)).count === 1, 'chat B’s tab keeping the keyboard');
		await press('ArrowLeft');
		await waitUntil(() => a.chatController.selectedKey === first, 10_000, 'ArrowLeft chose chat A again');
		await waitForSteady(async () => (await webviewQuery(`.tab-button[data-key="${first}"]:focus`)).count === 1, 'chat A’s tab keeping the keyboard');
	});

	/**
	 * Opens the command palette with F1 right after `act` (keys in the chat that start something),
	 * types a command's name once the palette has the keyboard (slowly, so the typing spans what the
	 * chat does next, until `done`), and checks that every key went to the palette.
	 */
	async function paletteAfter(act: () => Promise<void>, delayMs: number, done: () => boolean, what: string): Promise<void> {
		await act();
		await new Promise((r) => setTimeout(r, delayMs));
		await press('F1');
		await waitFor(async () => (await query('.quick-input-widget input:focus', { visible: true })).count > 0, 'the palette, its input holding the keyboard');
		await type('View: Toggle Word Wrap', 60);
		await waitUntil(done, 20_000, what);
		await new Promise((r) => setTimeout(r, 500)); // a late focus would land by now
		const keyboard = (await focusReport()).join('; ');
		assert.deepEqual((await webviewQuery('textarea.prompt-input')).texts, [''], `nothing typed into the chat (keyboard: ${keyboard})`);
		assert.deepEqual((await query('.quick-input-widget input', { visible: true })).texts, ['>View: Toggle Word Wrap'], `the palette holds the command's name (keyboard: ${keyboard})`);
		await press('Escape');
		await waitFor(async () => (await query('.quick-input-widget', { visible: true })).count === 0, 'the palette closed');
	}

	for (const delayMs of [0, 50, 150]) {
		it(`leaves the keyboard in the command palette opened ${delayMs} ms after answering a permission prompt, as the turn ends`, async () => {
			const a = chatApi();
			const key = await openChat(a, 'Chat Ask Then End');
			await paletteAfter(() => turnAnsweredByKeyboard('tidy the config'), delayMs, () => idle(a, key) && entriesOf(a, key).some((e) => e.kind === 'turn_end'), 'the turn to end');
		});
	}

	it('leaves the keyboard in the command palette when the agent asks for a sign-in meanwhile', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat Late Sign-in');
		const send = async () => {
			await type('hello', 10);
			await press('Enter');
		};
		// The log says it once the sign-in is asked (the state alone may pass by quickly).
		const asked = () => a.recentLog().some((l) => l.includes(`Chat ${key}: Chat Late Sign-in needs a sign-in`));
		await paletteAfter(send, 0, asked, 'the sign-in asked for');
		await waitFor(async () => (await webviewQuery('.sign-in button')).texts.some((t) => t.includes('Log in')), 'the sign-in card drawn');
	});

	it('labels the chats in the history as they are: files changed only when written, read-only only when they cannot go on', async () => {
		const a = chatApi();
		// The SDK example agent writes no file: one chat with its change allowed, one with it skipped
		// (without its pauses: this test needs its turns, not their pace).
		const allowed = await openChat(a, 'SDK Example Agent, quick');
		await turnAnsweredByKeyboard('allow it');
		await waitUntil(() => idle(a, allowed) && entriesOf(a, allowed).some((e) => e.kind === 'turn_end'), 20_000, 'the allowed turn to end');
		const skipped = await openChat(a, 'SDK Example Agent, quick');
		await type('skip it', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 2, 'the permission prompt', 20_000);
		await new Promise((r) => setTimeout(r, 650));
		await press('Tab', 'Enter');
		await waitUntil(() => idle(a, skipped) && entriesOf(a, skipped).some((e) => e.kind === 'turn_end'), 20_000, 'the skipped turn to end');
		const skippedCall = entriesOf(a, skipped).find((e) => e.kind === 'tool_call' && e.permission);
		assert.equal(skippedCall?.kind === 'tool_call' ? skippedCall.permission?.optionId : undefined, 'reject');
		// An agent that makes one file and writes another with the text it had.
		const writer = await openChat(a, 'Chat Notes Writer');
		await type('write the notes', 10);
		await press('Enter');
		await waitUntil(() => idle(a, writer) && entriesOf(a, writer).some((e) => e.kind === 'turn_end'), 20_000, 'the writer’s turn to end');
		await a.chatController.flushHistory();

		const historyId = (key: string) => a.chatController.tab(key)!.historyId;
		const detail = (id: string) => a.historyPicker.items().find((i) => i.source === 'record' && i.record.id === id)?.detail ?? '';
		const [allowedId, skippedId, writerId] = [historyId(allowed), historyId(skipped), historyId(writer)];
		assert.match(detail(allowedId), /· open$/);
		assert.doesNotMatch(detail(allowedId), /changed|read-only/, 'allowed: nothing written, and open and usable');
		assert.doesNotMatch(detail(skippedId), /changed|read-only/, 'skipped: nothing written, and open and usable');
		assert.match(detail(writerId), /· 1 file changed · open$/, 'the file made counts, the one written with its own text does not');

		// Closed, a chat with an agent that can neither resume nor load cannot go on: read-only.
		await a.chatController.closeTab(skipped);
		assert.match(detail(skippedId), /· read-only$/);

		// The picker as a person sees it.
		await runFromPalette('Agent Link: Chat History…', 'Agent Link: Chat History');
		await waitFor(async () => (await query(QUICK_ROWS)).texts.some((t) => t.includes('skip it')), 'the chats listed');
		const rows = (await query(QUICK_ROWS)).texts;
		const row = (title: string) => rows.find((t) => t.includes(title)) ?? '';
		assert.ok(row('allow it').includes('open') && !/changed|read-only/.test(row('allow it')), row('allow it'));
		assert.ok(row('skip it').includes('read-only') && !row('skip it').includes('changed'), row('skip it'));
		assert.ok(row('write the notes').includes('1 file changed') && !row('write the notes').includes('read-only'), row('write the notes'));
		await press('Escape');
		await waitFor(async () => (await query('.quick-input-widget', { visible: true })).count === 0, 'the picker closed');
	});

	it('has one set of New Chat, another agent and history buttons: in the view’s title bar, and in the chat editor’s', async () => {
		const a = chatApi();
		await openChat(a, 'SDK Example Agent');
		for (const label of [...ACTIONS, 'Open Chat in Editor']) {
			await waitFor(async () => (await query(VIEW_ACTION(label), { visible: true })).count === 1, `${label} in the view's title bar`);
		}
		assert.deepEqual((await webviewQuery('.tabs-bar button:not(.tab-button):not(.tab-close)')).texts.length, 1, 'the page draws only its follow button beside the tabs');
		assert.equal((await webviewQuery('.tabs-bar .follow')).count, 1);
		await screenshot(path.join(SHOTS, 'chat-title-bar.png'), '.part.sidebar');

		// The robot, clicked: another agent for a new chat.
		const before = a.chatController.tabKeys.length;
		await click(VIEW_ACTION('New Chat with Another Agent…'));
		await waitFor(async () => (await query('.quick-input-widget .quick-input-title')).texts[0] === 'Agent Link: New Chat', 'the agent picker');
		await type('Chat A', 20);
		await waitFor(async () => (await query(`${QUICK_ROWS}.focused`)).texts.some((t) => t.includes('Chat A')), 'Chat A chosen');
		await press('Enter');
		await waitUntil(() => a.chatController.tabKeys.length === before + 1, 20_000, 'a new chat');
		const picked = a.chatController.tabKeys.at(-1)!;
		await waitUntil(() => a.chatController.tab(picked)?.state === 'ready', 30_000, 'the new chat ready');
		assert.equal(a.chatController.tab(picked)?.session?.agentName, 'Chat A');

		// In an editor tab the same buttons are the editor's actions, and work there.
		await vscode.commands.executeCommand('agentLink.chat.openInEditor');
		for (const label of ACTIONS) {
			await waitFor(async () => (await query(EDITOR_ACTION(label), { visible: true })).count === 1, `${label} in the chat editor's title bar`);
		}
		await waitFor(async () => (await webviewQuery('.tab-list .tab-button')).count === 2 * a.chatController.tabKeys.length, 'the chat editor’s page drawn');
		await screenshot(path.join(SHOTS, 'chat-editor-title-bar.png'));
		await click(EDITOR_ACTION('New Chat'));
		await waitUntil(() => a.chatController.tabKeys.length === before + 2, 20_000, 'a new chat from the editor’s +');
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
		await waitFor(async () => (await query(EDITOR_ACTION('New Chat'), { visible: true })).count === 0, 'no chat actions once the chat editor is closed');
	});
});
