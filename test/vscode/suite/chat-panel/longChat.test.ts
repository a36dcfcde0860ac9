// Long chats through the browser: a 300-message conversation is drawn whole while the page is idle
// (its older entries start as placeholders), in order, in the log screen readers follow; an answer
// that comes in one long chunk is drawn whole, over as many frames as it takes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { press, type, waitFor, waitForSteady, webviewQuery } from '../browser';
import { chatHooks } from '../chatKit';
import { waitUntil } from '../util';

describe('chat panel: long chats', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('chat-long');

	/** A new chat with `agent`, "go" typed and sent with Enter, and the turn drawn as ended. */
	async function send(agent: string): Promise<void> {
		const a = chatApi();
		const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', agent))!;
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, `${agent} ready`);
		await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
		await type('go', 0);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.turn-end')).count > 0, 'the turn drawn as ended', 60_000);
	}

	it('draws every entry of a 300-message chat while the page is idle, in order, in the log', async () => {
		await send('Chat Many');
		// Neither a placeholder nor an entry whose text is still being drawn (a frame's budget at a time).
		await waitFor(async () => (await webviewQuery('.entry.placeholder, .entry.drawing')).count === 0, 'every entry drawn in full', 30_000);
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
	});

	it('draws a 400-paragraph answer that came in one chunk whole', async () => {
		await send('Chat Burst');
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown p')).count >= 400, 'the answer drawn to its end', 30_000);
		const paragraphs = (await webviewQuery('.entry-agent .markdown p')).texts;
		assert.equal(paragraphs.length, 400);
		assert.ok(
			paragraphs.every((t, i) => t === `Paragraph ${i + 1} of the answer.`),
			`in order, once each: ${paragraphs.slice(0, 2).join(' | ')} … ${paragraphs.slice(-2).join(' | ')}`,
		);
	});
});
