// A new chat in a multi-root workspace (two folders, opened from a .code-workspace file): New Chat
// asks which folder the agent works in; the one picked with the keyboard is session/new's cwd, and
// dismissing the question opens no chat. An agent that advertises additionalDirectories gets the
// other folder on session/new and session/resume, and its reads, writes and commands there need no
// question (every folder of the workspace is the workspace).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SessionUpdate } from '../../../../src/vscode/chat/chatSessions';
import * as z from 'zod/mini';
import { press, query, QUICK_ROWS, runFromPalette, waitFor, waitForSteady } from '../browser';
import { NOTIFICATIONS } from '../notifications';
import { waitUntil } from '../util';
import { chatHooks, inputFocused } from '../chatKit';

const any = z.unknown();

/** The folder question: shown, listing both folders, its input holding the keyboard (keys pressed before that go elsewhere). */
async function folderQuestion(): Promise<void> {
	await waitFor(async () => {
		const rows = (await query(QUICK_ROWS, { visible: true })).texts;
		return rows.length === 2 && rows[0]!.includes('api') && rows[1]!.includes('web app');
	}, 'the folder question with both folders', 30_000);
	await waitFor(async () => (await query('.quick-input-widget input:focus', { visible: true })).count > 0, 'the question to have the keyboard');
}


const questionGone = async () => (await query('.quick-input-widget', { visible: true })).count === 0;

/** The lines of `after` that came after `before` (the recent log is a ring: once full, old lines leave as new ones come). */
function newLines(before: readonly string[], after: readonly string[]): readonly string[] {
	for (let dropped = 0; dropped <= before.length; dropped++) {
		const kept = before.slice(dropped);
		if (kept.every((line, i) => after[i] === line)) {
			return after.slice(kept.length);
		}
	}
	return after;
}

describe('chat: the folder of a new chat in a multi-root workspace', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('folders', {
		onFailure: async () => console.log('quick input:', JSON.stringify(await query(QUICK_ROWS)), 'notifications:', JSON.stringify(await query(NOTIFICATIONS))),
	});

	before(() => {
		assert.deepEqual(
			vscode.workspace.workspaceFolders?.map((f) => f.name),
			['api', 'web app'],
			'a workspace of two folders',
		);
	});

	it('New Chat asks which folder; the second, picked with the keyboard, is the cwd the agent gets', async () => {
		const a = chatApi();
		const second = vscode.workspace.workspaceFolders![1]!.uri.fsPath;
		const before = a.chatController.tabKeys.length;
		await runFromPalette('Agent Link: New Chat');
		await folderQuestion();
		await press('ArrowDown');
		await waitFor(async () => (await query(`${QUICK_ROWS}.focused`, { visible: true })).texts.some((t) => t.includes('web app')), 'the second folder chosen');
		await press('Enter');
		await waitUntil(() => a.chatController.tabKeys.length === before + 1, 15_000, 'a chat');
		const key = a.chatController.tabKeys[a.chatController.tabKeys.length - 1]!;
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat ready');
		const session = a.chatController.tab(key)!.session!;
		assert.equal(session.cwd, second, "the chat's folder");
		const received = (await session.agent!.handle.connection.sendRequest('_test/received', {}, any)) as { method: string; params: { cwd?: string } }[];
		assert.equal(received.filter((m) => m.method === 'session/new').at(-1)?.params.cwd, second, 'session/new got the picked folder as cwd');
		assert.ok(!('additionalDirectories' in received.filter((m) => m.method === 'session/new').at(-1)!.params), 'no additionalDirectories for an agent that does not advertise them');
		await waitForSteady(inputFocused, "the new chat's input focused");
		await a.chatController.closeTab(key);
	});

	it('with a chat on screen, the question stays until answered; Escape dismisses it: no chat, no error', async () => {
		const a = chatApi();
		// A chat in the first folder, shown, its input holding the keyboard (showing the chat again must not take the focus from the question).
		const open = await a.chatController.newChat({ agentName: 'Fixture Agent', cwd: vscode.workspace.workspaceFolders![0]!.uri.fsPath });
		assert.ok(open);
		await a.chatController.showTab(open);
		await waitForSteady(inputFocused, 'the chat input focused');
		const before = a.chatController.tabKeys.length;
		const logged = a.recentLog();
		// Run as the palette does, but awaited here, so the test knows when the command has finished.
		const result = vscode.commands.executeCommand<string | undefined>('agentLink.chat.new');
		await folderQuestion();
		await press('Escape');
		assert.equal(await result, undefined, 'no chat key');
		await waitFor(questionGone, 'the question gone');
		assert.equal(a.chatController.tabKeys.length, before, 'no chat opened');
		const errors = newLines(logged, a.recentLog()).filter((l) => l.startsWith('[error]') || l.startsWith('[warn]'));
		assert.deepEqual(errors, [], 'nothing went wrong in the log');
		assert.deepEqual((await query(NOTIFICATIONS)).texts.filter((t) => t.includes('Agent Link')), [], 'no notification from Agent Link');
		await a.chatController.closeTab(open);
	});

	it('an agent that takes additional directories gets the other folder on session/new and resume, and works there without a question', async () => {
		const a = chatApi();
		const [api, web] = vscode.workspace.workspaceFolders!.map((f) => f.uri.fsPath) as [string, string];
		const session = await a.chat.create(a.agents.findChoice('Folders Agent')!, api);
		const sent = async () => (await session.agent!.handle.connection.sendRequest('_test/received', {}, any)) as { method: string; params: { cwd?: string; additionalDirectories?: string[] } }[];
		const opened = (await sent()).find((m) => m.method === 'session/new')!;
		assert.equal(opened.params.cwd, api);
		assert.deepEqual(opened.params.additionalDirectories, [web], 'the other folder');

		// The turn reads, writes and runs a command in the other folder: no question (a quick input would hold the turn).
		const updates: SessionUpdate[] = [];
		session.onDidUpdate((u) => updates.push(u));
		assert.equal(await session.prompt([{ type: 'text', text: 'work in the web app' }]), 'end_turn');
		const said = updates.map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '')).join('');
		assert.match(said, /fs\/read_text_file: \{"content":"<!doctype html>\\n"\}/, 'read');
		assert.match(said, /fs\/write_text_file: \{\}/, 'written');
		assert.equal(fs.readFileSync(path.join(web, 'notes.txt'), 'utf8'), 'written from the api chat\n');
		assert.ok(said.includes(`ran in ${web}`), `the command ran in the other folder: ${said}`);
		assert.equal((await query('.quick-input-widget', { visible: true })).count, 0, 'no question was asked');

		// After a crash the session is resumed on the new process, with the other folder again.
		process.kill(a.pool.get('Folders Agent')!.pid!, 'SIGKILL');
		await waitUntil(() => session.status.kind === 'restarting', 10_000, 'restarting');
		await waitUntil(() => session.status.kind === 'idle', 20_000, 'resumed');
		const resumed = (await sent()).find((m) => m.method === 'session/resume')!;
		assert.deepEqual([resumed.params.cwd, resumed.params.additionalDirectories], [api, [web]]);
		await session.close();
	});
});
