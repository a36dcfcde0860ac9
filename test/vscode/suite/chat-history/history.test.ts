// Chat history across a window reload. Phase 1 chats with three scripted agents: History Lister
// (session/list, load, delete; its sessions kept in a file across its processes), History Resumer
// (session/resume only) and History Plain (neither), with MCP servers from the settings. Phase 2 is
// a new VS Code window on the same profile: the tabs are back, drawn from the stored transcripts;
// the history lists every chat, the agent's own sessions a page at a time; chats go on with
// session/load or session/resume, or are read-only with a way to a new chat that links them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { serializeHistoryIndex } from '../../../../src/common/chat/history';
import { ChatHistory } from '../../../../src/vscode/chat/chatHistory';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { hasBrowser, press, query, QUICK_ROWS, runFromPalette, screenshot, type, waitFor, waitForSteady, webviewQuery } from '../browser';
import { api, repoRoot, waitUntil } from '../util';
import { entriesOf, facts, folder, keyOf, listerStore, openChat, phase, requests, saveFacts, scratch, textOf, type Chat } from './helpers';

/** README screenshots are refreshed with AGENT_LINK_SCREENSHOTS=1. */
const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());

/** A fresh in-memory Memento, for a store of the test's own. */
function memento(): vscode.Memento {
	const values = new Map<string, unknown>();
	return {
		keys: () => [...values.keys()],
		get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
		update: async (key: string, value: unknown) => {
			values.set(key, value);
		},
	} as vscode.Memento;
}

/** The servers of `agentLink.mcpServers` in a request's mcpServers: after Agent Link's editor tools, which come first (their own suite checks them). */
function userServers(servers: unknown): { name: string }[] {
	const list = servers as { name: string }[];
	assert.equal(list[0]?.name, 'agent-link-editor', 'the editor tools first');
	return list.slice(1);
}

const logged = (a: AgentLinkApi, text: string) => a.recentLog().some((line) => line.includes(text));

describe(`chat history (phase ${phase})`, function () {
	this.timeout(120_000);
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
		await a.chatController.restored;
	});

	afterEach(async function () {
		if (this.currentTest?.state === 'failed') {
			console.log('log:', a.recentLog().slice(-30).join('\n'));
			await screenshot(path.join(process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir(), `chat-history-failed-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}.png`)).catch(() => {});
		}
	});

	if (phase === 1) {
		let lister: string;
		let plain: string;
		let resumer: string;

		it('gives each agent the MCP servers of the settings in a transport it takes, and logs the ones left out', async () => {
			lister = await openChat(a, 'History Lister');
			plain = await openChat(a, 'History Plain');
			resumer = await openChat(a, 'History Resumer');
			const servers = (agent: 'lister' | 'plain' | 'resumer') => userServers(requests(agent, 'session/new').at(-1)?.params.mcpServers);
			assert.deepEqual(servers('lister'), [
				{ name: 'files', command: 'mcp-files', args: ['--root', '.'], env: [{ name: 'MCP_DEBUG', value: '1' }] },
				{ type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer fixture' }] },
			]);
			assert.deepEqual(
				servers('plain').map((s) => s.name),
				['files'],
				'an agent without mcpCapabilities gets the stdio servers only',
			);
			assert.deepEqual(
				servers('resumer').map((s) => s.name),
				['files', 'web', 'events'],
			);
			assert.ok(logged(a, 'MCP server "events" left out for History Lister'), 'the SSE server left out is logged');
			assert.ok(logged(a, 'MCP server "web" left out for History Plain'));
		});

		it('keeps each chat in the workspace storage as it goes: agent, folder, title, transcript, changed files', async () => {
			await a.chatController.sendPrompt(lister, 'Plan the release');
			await a.chatController.sendPrompt(resumer, 'Remember the number 42');
			const listerB = await openChat(a, 'History Lister');
			await a.chatController.sendPrompt(listerB, 'Fix the flaky test');
			const listerC = await openChat(a, 'History Lister');
			await a.chatController.sendPrompt(listerC, 'Write the changelog');
			await a.chatController.closeTab(listerC);
			// The last chat: an agent that can neither list, load nor resume.
			await a.chatController.sendPrompt(plain, 'Explain the build');
			await a.chatController.showTab(plain);

			const chat = (key: string, title: string): Chat => {
				const tab = a.chatController.tab(key);
				assert.ok(tab?.session?.sessionId, key);
				return { historyId: tab.historyId, sessionId: tab.session.sessionId, title };
			};
			const made = {
				listerA: chat(lister, 'Plan the release'),
				listerB: chat(listerB, 'Fix the flaky test'),
				resumer: chat(resumer, 'Remember the number 42'),
				plain: chat(plain, 'Explain the build'),
			};
			await a.chatController.flushHistory();
			const records = a.chatHistory.all;
			assert.deepEqual(
				records.map((r) => r.title),
				['Explain the build', 'Write the changelog', 'Fix the flaky test', 'Remember the number 42', 'Plan the release'],
				'newest first, the closed chat kept too',
			);
			const plainRecord = records[0]!;
			assert.equal(plainRecord.agentName, 'History Plain');
			assert.equal(plainRecord.cwd, folder());
			assert.equal(plainRecord.continueWith, undefined, 'History Plain can neither load nor resume');
			assert.deepEqual(plainRecord.changedFiles, [path.join(folder(), 'notes.md')], 'the file it wrote, not the one it only showed a diff of');
			// Open and usable, History Plain's chat is not read-only although its agent can neither resume nor load it.
			const detail = (id: string) => a.historyPicker.items().find((i) => i.source === 'record' && i.record.id === id)?.detail ?? '';
			assert.match(detail(made.plain.historyId), /· 1 file changed · open$/);
			assert.equal(records.find((r) => r.title === 'Plan the release')?.continueWith, 'load');
			assert.equal(records.find((r) => r.title === 'Remember the number 42')?.continueWith, 'resume');
			const stored = await a.chatHistory.readTranscript(plainRecord.id);
			assert.deepEqual(textOf(stored?.entries ?? [], 'user'), ['Explain the build']);
			assert.deepEqual(textOf(stored?.entries ?? [], 'agent'), ['Plain answer: the build runs esbuild.']);
			assert.deepEqual(stored, a.chatController.tab(plain)?.transcript.snapshot(), 'the transcript as drawn');

			const listerCRecord = records.find((r) => r.title === 'Write the changelog')!;
			const openTabs = a.chatHistory.openTabs;
			assert.deepEqual(openTabs.ids, [made.listerA.historyId, made.plain.historyId, made.resumer.historyId, made.listerB.historyId], 'the tabs open now, not the closed one');
			assert.equal(openTabs.selected, made.plain.historyId);
			saveFacts({ ...made, listerC: { historyId: listerCRecord.id, sessionId: listerCRecord.sessionId!, title: 'Write the changelog' }, openTabs: openTabs.ids });
		});
	}

	if (phase === 2) {
		it('opens the tabs of the last window again, drawn from the history, without starting their sessions', () => {
			const f = facts();
			const tabs = a.chatController.tabKeys.map((key) => a.chatController.tab(key)!);
			assert.deepEqual(
				tabs.map((t) => t.historyId),
				f.openTabs,
			);
			assert.deepEqual(
				tabs.map((t) => t.state),
				['stored', 'read_only', 'stored', 'stored'],
			);
			assert.equal(a.chatController.selectedKey, keyOf(a, f.plain.historyId), 'the tab that was shown');
			const lister = a.chatController.tab(keyOf(a, f.listerA.historyId)!)!;
			assert.deepEqual(textOf(lister.transcript.snapshot().entries, 'user'), ['Plan the release']);
			assert.deepEqual(textOf(lister.transcript.snapshot().entries, 'agent'), ['Listed answer.']);
			assert.equal(lister.transcript.snapshot().session.title, 'Plan the release');
			assert.equal(requests('lister', 'session/load').length, 0, 'nothing is loaded until the chat is used');
			assert.match(a.chatController.tab(keyOf(a, f.plain.historyId)!)!.detail ?? '', /History Plain cannot take a conversation up again/);
		});

		it('lists the last chat first with its transcript, for an agent without session/list too', async () => {
			const f = facts();
			const last = a.chatHistory.all[0];
			assert.equal(last?.id, f.plain.historyId);
			const stored = await a.chatHistory.readTranscript(last.id);
			assert.deepEqual(textOf(stored?.entries ?? [], 'user'), ['Explain the build']);
			assert.deepEqual(textOf(stored?.entries ?? [], 'agent'), ['Plain answer: the build runs esbuild.']);
			const item = a.historyPicker.items()[0];
			assert.equal(item?.label, 'Explain the build');
			assert.match(item?.description ?? '', / · History Plain$/);
			assert.match(item?.detail ?? '', /1 file changed · read-only · open$/);
		});

		it('pages through the sessions the agent keeps, one item per session with what is stored', async () => {
			// A session the Lister has that Agent Link never saw (begun in the agent's own tool, say).
			const store = JSON.parse(fs.readFileSync(listerStore(), 'utf8')) as { sessions: unknown[] };
			store.sessions.push({
				sessionId: 'external-1',
				cwd: folder(),
				title: 'Started elsewhere',
				updatedAt: '2020-01-01T00:00:00.000Z',
				updates: [
					{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'A question from elsewhere' } },
					{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'An answer from elsewhere' } },
				],
			});
			fs.writeFileSync(listerStore(), JSON.stringify(store));
			await waitUntil(() => a.pool.get('History Lister')?.readyAgent !== undefined, 30_000, 'the default agent ready');
			const agent = a.pool.get('History Lister')!.readyAgent!;
			const first = await a.chat.listSessions(agent, { cwd: folder() });
			assert.equal(first.sessions.length, 2);
			assert.equal(first.nextCursor, '2');
			const second = await a.chat.listSessions(agent, { cwd: folder(), cursor: first.nextCursor! });
			assert.equal(second.nextCursor, undefined);
			const all = [...first.sessions, ...second.sessions];
			assert.deepEqual(
				all.map((s) => s.title),
				['Write the changelog', 'Fix the flaky test', 'Plan the release', 'Started elsewhere'],
			);
			const items = a.historyPicker.items(new Map([[agent.name, { agent, sessions: first.sessions, cursor: '2' }]]));
			assert.deepEqual(
				items.map((i) => i.label),
				['Explain the build', 'Write the changelog', 'Fix the flaky test', 'Remember the number 42', 'Plan the release', '$(ellipsis) More from History Lister…'],
				'sessions that are stored show once',
			);
			const paged = a.historyPicker.items(new Map([[agent.name, { agent, sessions: all }]]));
			assert.equal(paged.at(-1)?.label, 'Started elsewhere', 'the oldest last');
			assert.match(paged.at(-1)?.detail ?? '', /kept by History Lister$/);
		});

		it('opens a session only the agent kept: session/load replays it into a tab', async () => {
			const agent = a.pool.get('History Lister')!.readyAgent!;
			const listed = (await a.chat.listSessions(agent, { cwd: folder(), cursor: '2' })).sessions.find((s) => s.sessionId === 'external-1')!;
			const key = await a.chatController.openListed(agent.name, listed);
			await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the listed session loaded');
			await waitUntil(() => textOf(entriesOf(a, key), 'agent').includes('An answer from elsewhere'), 10_000, 'the replayed answer');
			assert.deepEqual(textOf(entriesOf(a, key), 'user'), ['A question from elsewhere']);
			assert.equal(a.chatController.tab(key)?.transcript.snapshot().session.title, 'Started elsewhere');
			const load = requests('lister', 'session/load').at(-1)!.params;
			assert.equal(load.sessionId, 'external-1');
			assert.deepEqual(
				userServers(load.mcpServers).map((s) => s.name),
				['files', 'web'],
				'MCP servers in session/load too',
			);
			await a.chatController.closeTab(key);
		});

		it('takes a stored chat up again with session/load, the stored transcript kept rather than drawn twice, and goes on', async () => {
			const f = facts();
			const key = await a.chatController.openFromHistory(f.listerA.historyId);
			assert.equal(key, keyOf(a, f.listerA.historyId), 'its tab, already open');
			await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat taken up again');
			assert.equal(requests('lister', 'session/load').at(-1)?.params.sessionId, f.listerA.sessionId);
			const entries = entriesOf(a, key);
			assert.deepEqual(textOf(entries, 'user'), ['Plan the release'], 'what the load replayed is not drawn again');
			assert.ok(entries.some((e) => e.kind === 'status' && e.status === 'resumed' && /session\/load/.test(e.reason ?? '')));
			await a.chatController.sendPrompt(key, 'Ship it');
			assert.deepEqual(textOf(entriesOf(a, key), 'user'), ['Plan the release', 'Ship it']);
			assert.deepEqual(textOf(entriesOf(a, key), 'agent'), ['Listed answer.', 'Listed answer.']);
			await waitUntil(() => a.chatHistory.get(f.listerA.historyId)?.entries === entriesOf(a, key).length, 10_000, 'the longer chat stored');
		});

		it('a restored chat with an agent that resumes goes on with session/resume at its first prompt', async () => {
			const f = facts();
			const key = keyOf(a, f.resumer.historyId)!;
			assert.equal(a.chatController.tab(key)?.state, 'stored');
			await a.chatController.sendPrompt(key, 'What was the number?');
			assert.equal(a.chatController.tab(key)?.state, 'ready');
			const resume = requests('resumer', 'session/resume').at(-1)?.params;
			assert.equal(resume?.sessionId, f.resumer.sessionId);
			assert.deepEqual(
				userServers(resume?.mcpServers).map((s) => s.name),
				['files', 'web', 'events'],
			);
			assert.deepEqual(textOf(entriesOf(a, key), 'user'), ['Remember the number 42', 'What was the number?']);
			assert.deepEqual(textOf(entriesOf(a, key), 'agent'), ['Resumed answer.', 'Resumed answer.']);
		});

		it('a chat its agent cannot go on with is read-only, and a new chat from it links its transcript', async () => {
			const f = facts();
			const key = keyOf(a, f.plain.historyId)!;
			assert.equal(a.chatController.tab(key)?.state, 'read_only');
			await assert.rejects(a.chatController.sendPrompt(key, 'More?'), /cannot take a conversation up again/);
			assert.deepEqual(textOf(entriesOf(a, key), 'user'), ['Explain the build'], 'nothing sent');
			const before = requests('plain', 'session/new').length;
			const next = await a.chatController.continueInNewChat(key);
			assert.ok(next);
			await waitUntil(() => a.chatController.tab(next)?.state === 'ready', 30_000, 'the new chat');
			assert.equal(requests('plain', 'session/new').length, before + 1, 'a new session with the same agent');
			const seed = a.chatController.tab(next)!;
			const wire = (seed as unknown as { toWire(): { seed?: { text: string; attachments: { type: string; path: string }[] } } }).toWire().seed;
			assert.match(wire?.text ?? '', /the earlier chat "Explain the build"; its transcript is attached/);
			const file = wire?.attachments[0]?.path ?? '';
			assert.ok(file.endsWith(`${f.plain.historyId}.md`), file);
			const markdown = fs.readFileSync(file, 'utf8');
			assert.match(markdown, /^# Explain the build\n/);
			assert.match(markdown, /## You\n\nExplain the build\n/);
			assert.match(markdown, /## Changed files\n\n- .*notes\.md\n$/);
			await a.chatController.closeTab(next);
		});

		it('deletes a chat from the history, and the agent’s session too when it can', async () => {
			const f = facts();
			const record = a.chatHistory.get(f.listerC.historyId);
			assert.ok(record);
			await a.historyPicker.deleteRecord(record);
			assert.equal(a.chatHistory.get(f.listerC.historyId), undefined);
			assert.equal(requests('lister', 'session/delete').at(-1)?.params.sessionId, f.listerC.sessionId);
			const store = JSON.parse(fs.readFileSync(listerStore(), 'utf8')) as { sessions: { sessionId: string }[] };
			assert.ok(!store.sessions.some((s) => s.sessionId === f.listerC.sessionId));
			const agent = a.pool.get('History Lister')!.readyAgent!;
			const titles = [...(await a.chat.listSessions(agent, { cwd: folder() })).sessions].map((s) => s.title);
			assert.ok(!titles.includes('Write the changelog'), titles.join());
		});

		it('a damaged transcript opens as a tab that says so, and session/load fills it from the agent', async () => {
			const f = facts();
			const key = keyOf(a, f.listerB.historyId)!;
			await a.chatController.closeTab(key);
			const file = vscode.Uri.joinPath(vscode.Uri.file(storageFolder(a)), `${f.listerB.historyId}.json`);
			await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('{"version":1,"id":"not this'));
			assert.equal(await a.chatHistory.readTranscript(f.listerB.historyId), undefined);
			assert.ok(logged(a, 'is damaged and cannot be shown'));
			const reopened = await a.chatController.openFromHistory(f.listerB.historyId);
			await waitUntil(() => a.chatController.tab(reopened)?.state === 'ready', 30_000, 'the chat loaded');
			await waitUntil(() => textOf(entriesOf(a, reopened), 'user').includes('Fix the flaky test'), 10_000, 'the replay drawn');
		});

		it('a damaged index reads as empty history, set aside, and a record without its file opens empty', async () => {
			const dir = vscode.Uri.file(path.join(scratch(), 'damaged-store'));
			await vscode.workspace.fs.createDirectory(dir);
			await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'index.json'), new TextEncoder().encode('{"version":1,"records":[{"id":"../x"'));
			const damaged = new ChatHistory(dir, memento(), () => ({ maxBytes: 1_000_000 }), { trace() {}, debug() {}, info() {}, warn() {}, error() {} });
			await damaged.ready;
			assert.deepEqual(damaged.all, []);
			const names = (await vscode.workspace.fs.readDirectory(dir)).map(([name]) => name);
			assert.ok(names.some((n) => /^index\.damaged-\d+\.json$/.test(n)) && !names.includes('index.json'), names.join());
			const record = { id: 'lonely', agentName: 'History Plain', cwd: folder(), createdAt: 1, updatedAt: 2, bytes: 10, entries: 1, changedFiles: [] };
			await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'index.json'), new TextEncoder().encode(serializeHistoryIndex([record, { ...record, id: 'a/b' } as typeof record])));
			const partly = new ChatHistory(dir, memento(), () => ({ maxBytes: 1_000_000 }), { trace() {}, debug() {}, info() {}, warn() {}, error() {} });
			await partly.ready;
			assert.deepEqual(
				partly.all.map((r) => r.id),
				['lonely'],
			);
			assert.equal(await partly.readTranscript('lonely'), undefined);
			assert.equal(await partly.readTranscript('../index'), undefined, 'only ids of records are read');
			damaged.dispose();
			partly.dispose();
		});

		it('shows the history in a quick pick with title, time, agent and folder, searched by title', async function () {
			if (!hasBrowser()) {
				this.skip();
			}
			// One more session only the agent keeps, older than the others: on its second page.
			const store = JSON.parse(fs.readFileSync(listerStore(), 'utf8')) as { sessions: unknown[] };
			store.sessions.push({ sessionId: 'external-2', cwd: folder(), title: 'Older elsewhere', updatedAt: '2019-01-01T00:00:00.000Z', updates: [] });
			fs.writeFileSync(listerStore(), JSON.stringify(store));
			await vscode.commands.executeCommand('agentLink.chat.focus');
			// The page takes the focus when it gets to it: only then the palette, or the page would take the keys.
			await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the chat input focused');
			await runFromPalette('Agent Link: Chat History…', 'Agent Link: Chat History');
			await waitFor(async () => (await query(QUICK_ROWS)).texts.some((t) => t.includes('More from History Lister')), 'a second page offered');
			const rows = (await query(QUICK_ROWS)).texts;
			assert.ok(
				rows.some((t) => t.includes('Explain the build') && t.includes('History Plain') && t.includes('workspace with space') && t.includes('read-only')),
				rows.join('\n'),
			);
			assert.ok(!rows.some((t) => t.includes('Older elsewhere')), 'not on the first page');
			await type('more', 20);
			await press('Enter');
			await press('Control+a', 'Backspace');
			await waitFor(async () => (await query(QUICK_ROWS)).texts.some((t) => t.includes('Older elsewhere')), 'the second page listed');
			assert.ok(!(await query(QUICK_ROWS)).texts.some((t) => t.includes('More from History Lister')), 'no third page');
			await screenshot(path.join(SHOTS, 'chat-history.png'));
			await type('flaky', 20);
			await waitFor(async () => {
				const texts = (await query(QUICK_ROWS)).texts;
				return texts.length === 1 && texts[0]!.includes('Fix the flaky test');
			}, 'only the chat with that title (the second page fetched, no "More from …" left)');
			await press('Escape');
			await waitFor(async () => (await query('.quick-input-widget', { visible: true })).count === 0, 'the picker closed');
		});
	}
});

/** The history's folder in the workspace storage (its index is there). */
function storageFolder(a: AgentLinkApi): string {
	return (a.chatHistory as unknown as { folder: vscode.Uri }).folder.fsPath;
}
