// Long chats through the browser: a 300-message conversation is drawn whole while the page is idle
// (its older entries start as placeholders), in order, in the log screen readers follow, which does
// not announce what is drawn after the fact; the same when its tab is chosen again; an answer that
// comes in one long chunk is drawn whole, over as many frames as it takes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { press, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { chatHooks } from '../chatKit';
import { waitUntil } from '../util';

describe('chat panel: long chats', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('chat-long');

	/** A new chat with `agent`; with `go`, "go" typed and sent with Enter, and the turn drawn as ended. */
	async function open(agent: string, go = true): Promise<string> {
		const a = chatApi();
		const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', agent))!;
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, `${agent} ready`);
		await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
		if (go) {
			await type('go', 0);
			await press('Enter');
			await waitFor(async () => (await webviewQuery('.turn-end')).count > 0, 'the turn drawn as ended', 60_000);
		}
		return key;
	}

	/** Neither a placeholder nor an entry whose text is still being drawn (a frame's budget at a time). */
	async function drawnInFull(): Promise<void> {
		await waitFor(async () => (await webviewQuery('.entry.placeholder, .entry.drawing')).count === 0, 'every entry drawn in full', 30_000);
	}

	async function assertWholeConversation(): Promise<void> {
		const prompts = (await webviewQuery('.entry-user .plain-text')).texts;
		assert.equal(prompts.length, 151);
		assert.ok(
			prompts.every((t, i) => t === (i === 0 ? 'go' : `${i}. A question.`)),
			`the prompts in order: ${prompts.slice(0, 3).join(' | ')} … ${prompts.slice(-2).join(' | ')}`,
		);
		// Each answer drawn in full: its numbered line and its two points.
		assert.equal((await webviewQuery('.entry-agent .markdown')).count, 150);
		assert.equal((await webviewQuery('.entry-agent .markdown li')).count, 450);
		// The prompt, 300 messages and the turn's end, all in the log that screen readers follow.
		assert.equal((await webviewQuery('[role="log"] .entry')).count, 302);
	}

	it('draws every entry of a 300-message chat while the page is idle, in order, in the log, and again when its tab is chosen', async () => {
		const key = await open('Chat Many');
		await drawnInFull();
		await assertWholeConversation();
		// Another chat, then this one's tab clicked: the last 30 entries drawn at once, the others
		// while the page is idle, and those not announced to screen readers as if they were new.
		await open('Chat Burst', false);
		await webviewClick(`.tab-button[data-key="${key}"]`);
		await waitFor(async () => (await webviewQuery('.tab.selected .tab-agent')).texts[0] === ', Chat Many', 'its tab shown');
		await drawnInFull();
		await assertWholeConversation();
		assert.equal((await webviewQuery('[role="log"] .entry[aria-live="off"]')).count, 302 - 30, 'all but the last 30 drawn after the fact');
		assert.equal((await webviewQuery('.entry:not([aria-live="off"]) .turn-end')).count, 1, 'the turn end among the ones drawn at once');
	});

	it('draws a 400-paragraph answer that came in one chunk whole', async () => {
		await open('Chat Burst');
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown p')).count >= 400, 'the answer drawn to its end', 30_000);
		const paragraphs = (await webviewQuery('.entry-agent .markdown p')).texts;
		assert.equal(paragraphs.length, 400);
		assert.ok(
			paragraphs.every((t, i) => t === `Paragraph ${i + 1} of the answer.`),
			`in order, once each: ${paragraphs.slice(0, 2).join(' | ')} … ${paragraphs.slice(-2).join(' | ')}`,
		);
	});
});
